//! JSON text for the reports of the tools that run scenes (the command-line
//! tool's `--json` and the compare tool's `results.json`).

use std::fmt::Write;

/// `s` as a JSON string literal, quotes included: `"`, `\` and control
/// characters escaped (`\n`, `\r`, `\t` by name, the others as `\u00XX`).
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::string;

    #[test]
    fn quotes_backslashes_and_control_characters_are_escaped() {
        assert_eq!(string("plain"), "\"plain\"");
        assert_eq!(string("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(string("\n\r\t"), r#""\n\r\t""#);
        assert_eq!(string("\u{1}\u{1f}"), r#""\u0001\u001f""#);
        assert_eq!(string("é ✓"), "\"é ✓\"");
    }
}
