//! Timing statistics.

/// The `q`-quantile (0 ≤ q ≤ 1) of `samples` by the nearest-rank method: the
/// smallest sample with at least `q` of the samples at or below it. `None` when
/// there are no samples.
pub fn quantile(samples: &[f64], q: f64) -> Option<f64> {
    if samples.is_empty() {
        return None;
    }
    let mut s = samples.to_vec();
    s.sort_by(f64::total_cmp);
    let rank = (q.clamp(0.0, 1.0) * s.len() as f64).ceil() as usize;
    Some(s[rank.clamp(1, s.len()) - 1])
}

/// The median (nearest rank) of `samples`.
pub fn median(samples: &[f64]) -> Option<f64> {
    quantile(samples, 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_quantiles() {
        let s = [5.0, 1.0, 4.0, 2.0, 3.0];
        assert_eq!(median(&s), Some(3.0));
        assert_eq!(quantile(&s, 0.95), Some(5.0));
        assert_eq!(quantile(&s, 0.0), Some(1.0));
        // 20 samples 1..=20: the 95th percentile is the 19th.
        let t: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(quantile(&t, 0.95), Some(19.0));
        assert_eq!(median(&t), Some(10.0));
        assert_eq!(median(&[]), None);
    }
}
