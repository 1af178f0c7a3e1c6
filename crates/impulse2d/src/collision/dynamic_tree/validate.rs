//! Invariant checks of a [`DynamicTree`].

use super::{DynamicTree, Link, NO_CATEGORY_FLAG, NULL_INDEX, ROOT};

impl DynamicTree {
    pub(super) fn validate_pools(&self) -> core::result::Result<(), String> {
        if self.nodes.len() != self.node_links.len() {
            return Err("node and link arrays differ in length".into());
        }
        check_pool(
            &self.node_links,
            self.node_count,
            self.node_free,
            ("node", "nodes"),
        )?;
        if !self.node_links[ROOT as usize].allocated
            || self.node_links[ROOT as usize].parent != NULL_INDEX
        {
            return Err("root node is not allocated or has a parent".into());
        }

        let proxy_links: Vec<Link> = self.proxies.iter().map(|p| p.link).collect();
        check_pool(
            &proxy_links,
            self.proxy_count,
            self.proxy_free,
            ("proxy", "proxies"),
        )?;
        // Queries skip the tree on the union: it must cover every live proxy.
        let live = self.proxies.iter().filter(|p| p.link.allocated);
        if live.fold(0, |bits, p| bits | p.category_bits) & !self.category_union.0 != 0 {
            return Err("a proxy has a category bit outside the tree's category union".into());
        }
        Ok(())
    }

    pub(super) fn validate_structure(&self) -> core::result::Result<(), String> {
        let [r0, r1] = &self.nodes[ROOT as usize].children;
        if (r0.is_empty() && r1.is_node()) || (r1.is_empty() && r0.is_node()) {
            return Err("root has an empty slot beside a node".into());
        }

        let mut leaf_count = 0usize;
        let mut node_count = 1usize;
        let mut stack = vec![ROOT];
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n as usize];
            for (slot, child) in node.children.iter().enumerate() {
                if child.is_empty() {
                    if n != ROOT {
                        return Err(format!("node {n} has an empty slot {slot}"));
                    }
                    continue;
                }
                let index = child.index();
                if child.is_leaf() {
                    let proxy = self.proxies.get(index as usize).ok_or_else(|| {
                        format!("node {n} slot {slot}: proxy {index} out of range")
                    })?;
                    if proxy.link != Link::at(n, slot) {
                        return Err(format!(
                            "proxy {index}: link {:?} != ({n}, {slot})",
                            proxy.link
                        ));
                    }
                    if !child.aabb.is_valid() {
                        return Err(format!("proxy {index} has an invalid box {:?}", child.aabb));
                    }
                    if child.aux != proxy.generation || child.user_data != proxy.user_data {
                        return Err(format!(
                            "proxy {index}: slot copy of generation or user data is stale"
                        ));
                    }
                    if (child.word & NO_CATEGORY_FLAG != 0) != (proxy.category_bits == 0) {
                        return Err(format!("proxy {index}: zero-category flag is stale"));
                    }
                    leaf_count += 1;
                    continue;
                }

                if index == ROOT || index as usize >= self.nodes.len() {
                    return Err(format!("node {n} slot {slot}: bad node index {index}"));
                }
                let link = self.node_links[index as usize];
                if link != Link::at(n, slot) {
                    return Err(format!("node {index}: link {link:?} != ({n}, {slot})"));
                }
                node_count += 1;
                if node_count > self.node_count as usize {
                    return Err("more nodes reachable than allocated (cycle?)".into());
                }
                let [g0, g1] = &self.nodes[index as usize].children;
                if g0.is_empty() || g1.is_empty() {
                    return Err(format!("node {index} has an empty slot"));
                }
                if !child.aabb.contains(&g0.aabb) || !child.aabb.contains(&g1.aabb) {
                    return Err(format!(
                        "node {index}: its box does not contain its children's"
                    ));
                }
                if child.aux != 1 + g0.height().max(g1.height()) || child.user_data != 0 {
                    return Err(format!("node {index}: height {} is wrong", child.aux));
                }
                if child.is_moved() != (g0.is_moved() || g1.is_moved()) {
                    return Err(format!(
                        "node {index}: enlargement mark disagrees with its children"
                    ));
                }
                stack.push(index);
            }
        }
        if leaf_count != self.proxy_count as usize {
            return Err(format!(
                "{leaf_count} leaves reachable, {} proxies",
                self.proxy_count
            ));
        }
        if node_count != self.node_count as usize {
            return Err(format!(
                "{node_count} nodes reachable, {} allocated",
                self.node_count
            ));
        }
        Ok(())
    }
}

/// Checks a pool's slots (`links`, one per slot): `count` of them in use, and
/// the free list from `free_head` running through the others exactly once.
/// `(one, many)` name a slot in the messages.
fn check_pool(
    links: &[Link],
    count: u32,
    free_head: u32,
    (one, many): (&str, &str),
) -> core::result::Result<(), String> {
    let allocated = links.iter().filter(|l| l.allocated).count();
    if allocated != count as usize {
        return Err(format!("{allocated} {many} allocated, count says {count}"));
    }
    let mut free = 0usize;
    let mut i = free_head;
    while i != NULL_INDEX {
        let link = links
            .get(i as usize)
            .ok_or_else(|| format!("{one} free list points out of range: {i}"))?;
        if link.allocated {
            return Err(format!("allocated {one} {i} on the free list"));
        }
        free += 1;
        if free > links.len() {
            return Err(format!("{one} free list has a cycle"));
        }
        i = link.parent;
    }
    if free + count as usize != links.len() {
        return Err(format!(
            "{one} pool: {free} free + {count} used != {}",
            links.len()
        ));
    }
    Ok(())
}
