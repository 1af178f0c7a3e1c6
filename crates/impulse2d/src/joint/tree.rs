//! Joint trees: the point constraints of revolute joints that link bodies
//! without a loop, solved together and exactly in every solve and relax pass
//! (issue 17, part 1: stiff joint chains).
//!
//! Gauss–Seidel visits one joint at a time, so a load hanging on a chain of
//! light links is felt by each joint through its own links only: a soft joint
//! stretches by `T / (m_eff ω²)`, and a 4,000 kg ball on 6 kg links stretches
//! its chain by 28 %. Here every tree of revolute joints (a chain, a
//! ragdoll, a bridge: no loop among its dynamic bodies; a static or
//! kinematic body closes no loop, so a bridge pinned at both ends is a tree)
//! has its point rows solved as one linear system, `K y = Ċ + bias` with
//! `K = J M⁻¹ Jᵀ` of the whole tree, and each joint takes
//! `Δλ = −mass_scale·y − impulse_scale·λ`: the joint's own softness, as in
//! the row-by-row solve, but with the coupled effective mass. The soft
//! spring's stiffness becomes `ω² K⁻¹`, so along a chain whose tension
//! changes only by the links' weights the joints settle at `K T / ω²`, which
//! vanishes inside the chain (`g / ω²` in all). The relax pass, a direct
//! solve too, takes out exactly the velocity that the position correction
//! added, so a stretched chain closes without flinging its links.
//!
//! The system is factorised in joint space, leaves first: bodies in reverse
//! breadth-first order from the tree's root body, and at each body its joints
//! to static bodies, then the joint to its parent. Eliminating a joint only
//! couples the joints still left at one body, always through that body, so
//! the fill stays in a 3 × 3 matrix per body (the inverse mass the body
//! shows its remaining joints, as in articulated-body methods) and the work
//! is linear in the joints. Every pivot is a Schur complement of `K`, which
//! is symmetric positive definite when the joints are independent, so no
//! pivoting is needed; a singular pivot (redundant joints on a body locked in
//! rotation, say) gives that joint no impulse, as Box2D's `b2Solve22` does.
//! Arithmetic is `f64`, in a fixed order: the same bits on any thread count.
//!
//! Joint loops (the joint grid), lone joints and, for now, branching trees
//! (ragdolls: see [`MAX_TREE_DEGREE`]) keep the row-by-row solve.
//! The spring, motor and limit rows of a revolute joint stay in its colour's
//! pass; only the point row moves here, solved after every colour's joints.
//!
//! # References
//! - D. Baraff, *Linear-Time Dynamics using Lagrange Multipliers*,
//!   SIGGRAPH 1996 (sparse factorisation over a loop-free joint graph).
//! - R. Featherstone, *Rigid Body Dynamics Algorithms* (2008), ch. 7 (the
//!   articulated-body inverse mass a subtree leaves on its parent).
//! - E. Catto, *Solver2D* (2024) and *Soft Constraints*, GDC 2011 (the soft
//!   step this plugs into).

use std::sync::atomic::{AtomicBool, Ordering};

use crate::body::{Body, BodyState, flags};
use crate::math::Vec2;
use crate::solver::constraint_graph::ConstraintGraph;
use crate::solver::softness::Softness;
use crate::solver::solver_set::AWAKE_SET;

use super::pair::Pair;
use super::{JointKind, JointSim};

/// No body (static, kinematic or asleep), no link.
const NONE: u32 = u32::MAX;

/// The body flags the tree search reads.
const WATCHED_FLAGS: u32 = flags::DYNAMIC | flags::LOCKS;

/// Fewest joints in a tree solved here: a lone joint's direct solve is its
/// own row solve.
const MIN_TREE_JOINTS: u32 = 2;

/// Most joints of a tree at one body: 2, chains (a ball and chain, a
/// bridge). The factorisation handles any tree, but a branching one (a
/// ragdoll) solved exactly lands stiffer than row by row (its joints no
/// longer give on impact) and tumbles further; ragdolls keep Box2D's
/// behaviour until that is weighed (issue 17 asks that they keep it).
const MAX_TREE_DEGREE: u32 = 2;

type M3 = [[f64; 3]; 3];
type V3 = [f64; 3];
/// A point row's Jacobian block for one body: 2 rows, 3 columns (x, y, θ).
type M23 = [[f64; 3]; 2];
type M2 = [[f64; 2]; 2];

/// A revolute joint that may join a tree: where it sits in the constraint
/// graph and the awake-set indices of its dynamic bodies (`NONE` for a
/// static, kinematic or sleeping body).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Link {
    color: u8,
    index: u32,
    a: u32,
    b: u32,
    /// Whether it is in a tree this step.
    tree: bool,
}

/// A dynamic body of a tree.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TreeBody {
    /// Its awake-set index.
    index: u32,
    /// The link to its parent body (`NONE` for the root).
    parent_link: u32,
    /// The inverse mass it shows its joints not yet eliminated, 3 × 3.
    w: M3,
    /// The forward, then the backward, accumulation through the body.
    t: V3,
}

/// A joint of a tree, in elimination order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TreeJoint {
    link: u32,
    /// Its bodies in [`JointForest::bodies`] (`NONE`: static or kinematic).
    side_a: u32,
    side_b: u32,
    /// Anchors relative to the centres of mass in this pass, metres.
    ra: Vec2,
    rb: Vec2,
    /// Jacobian blocks, and each times its body's `w` when eliminated.
    ja: M23,
    jb: M23,
    aa: M23,
    ab: M23,
    /// The inverse of the pivot.
    s_inv: M2,
    /// The forward solution, then the joint's `y`.
    g: [f64; 2],
}

/// The trees of one step: known before the solve, then factorised and
/// solved in every solve and relax pass.
///
/// Which joints form which trees is a function of the joints' [`candidate`]
/// links (by place in colour order), where each colour starts, the number of
/// awake bodies and the `DYNAMIC` flags and motion locks of the bodies that
/// could be in a tree. The forest keeps its trees from one step to the next
/// and finds them again (the serial union–find) only when one of those
/// changed: the preparation notes whether any joint's candidate differs from
/// the one it overwrites ([`JointForest::candidates_changed`]), and
/// [`JointForest::build`] compares the rest. The trees kept are the ones a
/// fresh search would find (checked in debug builds every step), so the
/// results never depend on what the forest held before: a restored or
/// rolled-back world finds the same trees.
#[derive(Debug, Default)]
pub(crate) struct JointForest {
    /// Per joint of the graph (all colours, in colour order): its
    /// [`candidate`] link, written while the joints are prepared.
    pub candidates: Vec<(u32, u32)>,
    /// Set by the joint preparation when a candidate it wrote differs from
    /// the one it overwrote; cleared by [`JointForest::build`].
    pub candidates_changed: AtomicBool,
    /// Whether the trees were found from `candidates` as they are now (with
    /// the layout and flags below); false until the first search.
    found: bool,
    /// Where each colour's joints started in `candidates` at the last search.
    found_starts: Vec<usize>,
    /// The number of awake bodies at the last search.
    found_bodies: usize,
    /// The bodies whose flags the last search read (the ends of the links
    /// between bodies of low degree) with their `DYNAMIC` flag and motion
    /// locks then; a body may be listed twice.
    watched: Vec<(u32, u32)>,
    /// Searches made and searches saved, for the tests.
    #[cfg(test)]
    counts: (u32, u32),
    /// The forest a fresh search fills to check the kept trees against.
    #[cfg(any(debug_assertions, test))]
    check: Option<Box<JointForest>>,
    /// Every awake revolute joint with a dynamic body, in colour order.
    pub links: Vec<Link>,
    /// The trees' bodies, each tree's in breadth-first order from its root.
    pub bodies: Vec<TreeBody>,
    /// The trees' joints, each tree's in elimination order.
    pub joints: Vec<TreeJoint>,
    /// Where each tree starts in `bodies` and `joints`, and the ends after
    /// the last.
    pub trees: Vec<(u32, u32)>,
    /// Union-find parents, then adjacency fill cursors, per awake body.
    root: Vec<u32>,
    /// Joints per union-find root.
    count: Vec<u32>,
    /// Whether a union-find root's component has a loop (or is left row by
    /// row for another reason: a body of too high degree, more point rows than
    /// freedoms).
    cyclic: Vec<bool>,
    /// Per awake body, whether it holds more than `MAX_TREE_DEGREE` joints
    /// or a link to such a body.
    flagged: Vec<bool>,
    /// Degrees of freedom per union-find root (3 per dynamic body, less its
    /// motion locks).
    freedoms: Vec<u32>,
    /// Per awake body, where its tree links start in `adjacent` (CSR).
    start: Vec<u32>,
    adjacent: Vec<u32>,
    /// Per awake body, its index in `bodies`, or `NONE`.
    tree_body: Vec<u32>,
}

/// The union-find root of `i`, halving paths on the way.
fn find(root: &mut [u32], mut i: u32) -> u32 {
    while root[i as usize] != i {
        let up = root[root[i as usize] as usize];
        root[i as usize] = up;
        i = up;
    }
    i
}

/// The link `sim` brings to this step's joint trees: the awake-set indices
/// of its bodies (`body_a`, `body_b`: their records), each `NONE` unless
/// dynamic and awake, or `(NONE, NONE)` when it brings none (not a revolute
/// joint, or no dynamic awake body). Clears the joint's `in_tree` mark,
/// which [`JointForest::build`] sets again for the joints of this step's
/// trees. Run on every joint of the graph as it is prepared (on the workers,
/// in blocks of joints, from the body records the preparation reads: a
/// record's `DYNAMIC` flag is its state's, see `World::set_body_flags`), so
/// that the serial part of the forest's construction never visits the joint
/// sims themselves; each block notes whether any link differs from the one it
/// overwrites ([`JointForest::candidates_changed`]).
#[inline(always)]
pub(crate) fn candidate(sim: &mut JointSim, body_a: &Body, body_b: &Body) -> (u32, u32) {
    sim.base.in_tree = false;
    if !matches!(sim.kind, JointKind::Revolute(_)) {
        return (NONE, NONE);
    }
    let dynamic = |body: &Body| {
        let awake = body.set_index == AWAKE_SET;
        if awake && body.flags & flags::DYNAMIC != 0 {
            body.local_index
        } else {
            NONE
        }
    };
    (dynamic(body_a), dynamic(body_b))
}

impl JointForest {
    /// The number of trees this step.
    pub(crate) fn tree_count(&self) -> usize {
        self.trees.len().saturating_sub(1)
    }

    /// Sizes [`JointForest::candidates`] for `joints` joints (all colours,
    /// in colour order) before the joints are prepared; allocates only when
    /// the scene grows.
    pub(crate) fn reserve_candidates(&mut self, joints: usize) {
        self.candidates.resize(joints, (NONE, NONE));
    }

    /// Finds this step's trees among the awake joints of `graph` and marks
    /// their joints `in_tree`. Runs after the joints were prepared: each
    /// joint's [`candidate`] is in [`JointForest::candidates`] (at its place
    /// in colour order, colour `c` starting at `joint_start[c]`), and every
    /// joint's mark was cleared there. `states` are the awake bodies' states
    /// (for their `DYNAMIC` flags and motion locks). Keeps last step's trees
    /// when nothing they were found from changed (see [`JointForest`]);
    /// allocates only when the scene grows. Never inlined, so that profiles
    /// show this serial part of the step on its own.
    #[inline(never)]
    pub(crate) fn build(
        &mut self,
        graph: &mut ConstraintGraph,
        joint_start: &[usize],
        states: &[BodyState],
    ) {
        let changed = std::mem::replace(self.candidates_changed.get_mut(), false);
        let same = self.found
            && !changed
            && self.found_starts == joint_start
            && self.found_bodies == states.len()
            && self
                .watched
                .iter()
                .all(|&(body, bits)| states[body as usize].flags & WATCHED_FLAGS == bits);
        if same {
            #[cfg(test)]
            {
                self.counts.1 += 1;
            }
            #[cfg(any(debug_assertions, test))]
            self.debug_check_kept(graph, joint_start, states);
        } else {
            self.search(graph, joint_start, states);
        }
        for joint in &self.joints {
            let link = self.links[joint.link as usize];
            let sim = &mut graph.colors[link.color as usize].joint_sims[link.index as usize];
            sim.base.in_tree = true;
        }
    }

    /// Notes that the candidates may have changed, from a block of the joint
    /// preparation that saw one change.
    pub(crate) fn note_changed(changed: &AtomicBool) {
        changed.store(true, Ordering::Relaxed);
    }

    /// Finds the trees afresh (the serial part of [`JointForest::build`]):
    /// collects the links, joins their bodies and orders the trees, and
    /// notes what it read.
    #[inline(never)]
    fn search(&mut self, graph: &ConstraintGraph, joint_start: &[usize], states: &[BodyState]) {
        #[cfg(test)]
        {
            self.counts.0 += 1;
        }
        self.found = true;
        self.found_starts.clear();
        self.found_starts.extend_from_slice(joint_start);
        self.found_bodies = states.len();
        self.watched.clear();
        self.links.clear();
        self.bodies.clear();
        self.joints.clear();
        self.trees.clear();
        for (c, color) in graph.colors.iter().enumerate() {
            let (first, count) = (joint_start[c], color.joint_sims.len());
            for (i, &(a, b)) in self.candidates[first..first + count].iter().enumerate() {
                if a != NONE || b != NONE {
                    self.links.push(Link {
                        color: c as u8,
                        index: i as u32,
                        a,
                        b,
                        tree: false,
                    });
                }
            }
        }
        if self.links.len() < MIN_TREE_JOINTS as usize {
            return;
        }
        if !self.find_trees(states) {
            return;
        }
        self.order_trees(states.len());
    }

    /// Checks that the trees kept are the ones a fresh search finds (in a
    /// second forest, kept for the next check: no allocation once grown).
    #[cfg(any(debug_assertions, test))]
    fn debug_check_kept(
        &mut self,
        graph: &ConstraintGraph,
        joint_start: &[usize],
        states: &[BodyState],
    ) {
        let mut fresh = self.check.take().unwrap_or_default();
        std::mem::swap(&mut fresh.candidates, &mut self.candidates);
        fresh.search(graph, joint_start, states);
        std::mem::swap(&mut fresh.candidates, &mut self.candidates);
        let link = |l: &Link| (l.color, l.index, l.a, l.b, l.tree);
        let body = |b: &TreeBody| (b.index, b.parent_link);
        let joint = |j: &TreeJoint| (j.link, j.side_a, j.side_b);
        assert!(
            self.links.iter().map(link).eq(fresh.links.iter().map(link)),
            "kept joint tree links"
        );
        assert!(
            self.bodies
                .iter()
                .map(body)
                .eq(fresh.bodies.iter().map(body)),
            "kept joint tree bodies"
        );
        assert!(
            self.joints
                .iter()
                .map(joint)
                .eq(fresh.joints.iter().map(joint)),
            "kept joint tree joints"
        );
        assert_eq!(self.trees, fresh.trees, "kept joint trees");
        self.check = Some(fresh);
    }

    /// Marks the links of loop-free components with enough joints and lists
    /// each awake body's marked links (CSR); whether there are any.
    fn find_trees(&mut self, states: &[BodyState]) -> bool {
        let n = states.len();
        // Each body's degree: a component with a body holding more than
        // `MAX_TREE_DEGREE` of its joints is left row by row, so the
        // union–find below joins only the bodies of lower degree, over the
        // links between them (all of the joint grid's bodies but its corners
        // hold three or four joints). A component of that union whose body
        // has a link to a body of higher degree is part of such a component,
        // and any such component's other parts have one too (the first link
        // out of a part on the way to the body of higher degree leads to one),
        // so flagging those parts leaves every link's answer as the union
        // over all links gives it; the components without a body of higher
        // degree are joined, counted and checked for loops exactly as there.
        self.start.clear();
        self.start.resize(n + 1, 0);
        for link in &self.links {
            for end in [link.a, link.b] {
                if end != NONE {
                    self.start[end as usize + 1] += 1;
                }
            }
        }
        let degree = &self.start[1..];
        let high = |body: u32| body != NONE && degree[body as usize] > MAX_TREE_DEGREE;
        // Only the links between bodies of low degree count towards a tree:
        // with fewer of them than a tree's joints (the joint grid has none)
        // there is none.
        let low = |link: &&Link| !high(link.a) && !high(link.b);
        if self
            .links
            .iter()
            .filter(low)
            .take(MIN_TREE_JOINTS as usize)
            .count()
            < MIN_TREE_JOINTS as usize
        {
            return false;
        }

        // Components of dynamic bodies joined by the links; a link between
        // two bodies already joined closes a loop.
        self.root.clear();
        self.root.extend(0..n as u32);
        self.count.clear();
        self.count.resize(n, 0);
        self.cyclic.clear();
        self.cyclic.resize(n, false);
        self.flagged.clear();
        self.flagged.resize(n, false);
        for link in &self.links {
            if high(link.a) || high(link.b) {
                for end in [link.a, link.b] {
                    if end != NONE {
                        self.flagged[end as usize] = true;
                    }
                }
                continue;
            }
            for end in [link.a, link.b] {
                if end != NONE {
                    let bits = states[end as usize].flags & WATCHED_FLAGS;
                    self.watched.push((end, bits));
                }
            }
            let ra = if link.a == NONE {
                NONE
            } else {
                find(&mut self.root, link.a)
            };
            let rb = if link.b == NONE {
                NONE
            } else {
                find(&mut self.root, link.b)
            };
            if ra == NONE || rb == NONE || ra == rb {
                let r = (if ra == NONE { rb } else { ra }) as usize;
                self.count[r] += 1;
                self.cyclic[r] |= ra == rb;
            } else {
                let (keep, gone) = (ra.min(rb) as usize, ra.max(rb) as usize);
                self.root[gone] = keep as u32;
                self.count[keep] += self.count[gone] + 1;
                self.cyclic[keep] |= self.cyclic[gone];
            }
        }
        // Every body now points at its root: a union always hangs the larger
        // root under the smaller, so a body's parent has a smaller index and
        // one pass in increasing order leaves each body's parent a root.
        for body in 0..n {
            let up = self.root[body] as usize;
            self.root[body] = self.root[up];
        }
        let root = &self.root;
        // Bodies of higher degree (each its own component now) and the
        // components linked to one are left row by row.
        for (&flagged, &r) in self.flagged.iter().zip(root) {
            if flagged {
                self.cyclic[r as usize] = true;
            }
        }

        // Components with more point rows (two per joint) than freedoms are
        // over-constrained (a plank pinned at both ends: four rows on three
        // freedoms): their exact system is singular, and the row solver's soft
        // answer is the one to keep.
        self.freedoms.clear();
        self.freedoms.resize(n, 0);
        for (body, state) in states.iter().enumerate() {
            if state.flags & flags::DYNAMIC != 0 {
                let r = root[body] as usize;
                self.freedoms[r] += 3 - (state.flags & flags::LOCKS).count_ones();
            }
        }
        for (r, &up) in root.iter().enumerate() {
            if up == r as u32 && 2 * self.count[r] > self.freedoms[r] {
                self.cyclic[r] = true;
            }
        }

        self.start.clear();
        self.start.resize(n + 1, 0);
        let mut any = false;
        for link in &mut self.links {
            let body = if link.a == NONE { link.b } else { link.a };
            let r = root[body as usize] as usize;
            link.tree = !self.cyclic[r] && self.count[r] >= MIN_TREE_JOINTS;
            any |= link.tree;
            if link.tree {
                for end in [link.a, link.b] {
                    if end != NONE {
                        self.start[end as usize + 1] += 1;
                    }
                }
            }
        }
        if !any {
            return false;
        }
        for i in 0..n {
            self.start[i + 1] += self.start[i];
        }
        self.adjacent.clear();
        self.adjacent.resize(self.start[n] as usize, 0);
        // `root` becomes the fill cursor.
        self.root.clear();
        self.root.extend_from_slice(&self.start[..n]);
        for (k, link) in self.links.iter().enumerate() {
            if link.tree {
                for end in [link.a, link.b] {
                    if end != NONE {
                        let at = &mut self.root[end as usize];
                        self.adjacent[*at as usize] = k as u32;
                        *at += 1;
                    }
                }
            }
        }
        true
    }

    /// Lists each tree's bodies breadth first from the first body of its
    /// first link, then its joints in elimination order: bodies from the
    /// last, each body's links to static bodies, then its link to its parent.
    fn order_trees(&mut self, n: usize) {
        let JointForest {
            links,
            bodies,
            joints,
            trees,
            start,
            adjacent,
            tree_body,
            ..
        } = self;
        tree_body.clear();
        tree_body.resize(n, NONE);
        let (adjacent, start) = (&adjacent[..], &start[..]);
        let links_at = move |body: u32| {
            let body = body as usize;
            &adjacent[start[body] as usize..start[body + 1] as usize]
        };
        for link in links.iter().filter(|link| link.tree) {
            let first = if link.a == NONE { link.b } else { link.a };
            if tree_body[first as usize] != NONE {
                continue;
            }
            let (body_start, joint_start) = (bodies.len(), joints.len());
            trees.push((body_start as u32, joint_start as u32));
            tree_body[first as usize] = body_start as u32;
            bodies.push(TreeBody::new(first, NONE));
            let mut head = body_start;
            while head < bodies.len() {
                let TreeBody {
                    index, parent_link, ..
                } = bodies[head];
                for &k in links_at(index) {
                    let link = links[k as usize];
                    let other = if link.a == index { link.b } else { link.a };
                    if k != parent_link && other != NONE {
                        tree_body[other as usize] = bodies.len() as u32;
                        bodies.push(TreeBody::new(other, k));
                    }
                }
                head += 1;
            }
            for body in (body_start..bodies.len()).rev() {
                let TreeBody {
                    index, parent_link, ..
                } = bodies[body];
                let grounded = links_at(index)
                    .iter()
                    .filter(|&&k| links[k as usize].a == NONE || links[k as usize].b == NONE);
                let parent = (parent_link != NONE).then_some(parent_link);
                for k in grounded.copied().chain(parent) {
                    let link = links[k as usize];
                    let side = |end: u32| {
                        if end == NONE {
                            NONE
                        } else {
                            tree_body[end as usize]
                        }
                    };
                    joints.push(TreeJoint::new(k, side(link.a), side(link.b)));
                }
            }
        }
        trees.push((bodies.len() as u32, joints.len() as u32));
    }
}

impl TreeBody {
    fn new(index: u32, parent_link: u32) -> TreeBody {
        TreeBody {
            index,
            parent_link,
            w: [[0.0; 3]; 3],
            t: [0.0; 3],
        }
    }
}

impl TreeJoint {
    fn new(link: u32, side_a: u32, side_b: u32) -> TreeJoint {
        TreeJoint {
            link,
            side_a,
            side_b,
            ra: Vec2::ZERO,
            rb: Vec2::ZERO,
            ja: [[0.0; 3]; 2],
            jb: [[0.0; 3]; 2],
            aa: [[0.0; 3]; 2],
            ab: [[0.0; 3]; 2],
            s_inv: [[0.0; 2]; 2],
            g: [0.0; 2],
        }
    }
}

/// The Jacobian block of a point row for one body: `sign` −1 for body A,
/// +1 for body B, `r` the anchor relative to the body's centre of mass:
/// `Ċ = ±(v + ω × r)`.
fn jacobian(sign: f64, r: Vec2) -> M23 {
    let (x, y) = (f64::from(r.x), f64::from(r.y));
    [[sign, 0.0, -sign * y], [0.0, sign, sign * x]]
}

/// `J W` for a Jacobian block and a body's 3 × 3 inverse mass.
fn times(j: &M23, w: &M3) -> M23 {
    let mut out = [[0.0; 3]; 2];
    for (row, j_row) in out.iter_mut().zip(j) {
        for (c, v) in row.iter_mut().enumerate() {
            *v = j_row[0] * w[0][c] + j_row[1] * w[1][c] + j_row[2] * w[2][c];
        }
    }
    out
}

/// `A Bᵀ` of two 2 × 3 blocks.
fn times_t(a: &M23, b: &M23) -> M2 {
    let dot = |x: &[f64; 3], y: &[f64; 3]| x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    [
        [dot(&a[0], &b[0]), dot(&a[0], &b[1])],
        [dot(&a[1], &b[0]), dot(&a[1], &b[1])],
    ]
}

/// `A v` of a 2 × 3 block and a 3-vector.
fn apply(a: &M23, v: &V3) -> [f64; 2] {
    [
        a[0][0] * v[0] + a[0][1] * v[1] + a[0][2] * v[2],
        a[1][0] * v[0] + a[1][1] * v[1] + a[1][2] * v[2],
    ]
}

/// Adds `Aᵀ g` (a 2 × 3 block transposed times a 2-vector) to `v`.
fn add_transposed(v: &mut V3, a: &M23, g: [f64; 2]) {
    for (c, x) in v.iter_mut().enumerate() {
        *x += a[0][c] * g[0] + a[1][c] * g[1];
    }
}

/// The inverse of a 2 × 2 pivot, or zero when it is not positive definite
/// or singular to working precision (the joint then takes no impulse).
fn inverse(s: &M2) -> M2 {
    let det = s[0][0] * s[1][1] - s[0][1] * s[1][0];
    let positive = s[0][0] > 0.0 && s[1][1] > 0.0;
    if !positive || det.is_nan() || det <= f64::EPSILON * (s[0][0] * s[1][1]).abs() {
        return [[0.0; 2]; 2];
    }
    let inv = 1.0 / det;
    [
        [s[1][1] * inv, -s[0][1] * inv],
        [-s[1][0] * inv, s[0][0] * inv],
    ]
}

fn mul2(m: &M2, v: [f64; 2]) -> [f64; 2] {
    [
        m[0][0] * v[0] + m[0][1] * v[1],
        m[1][0] * v[0] + m[1][1] * v[1],
    ]
}

/// One solve (`use_bias`) or relax pass over the point rows of a run of
/// whole trees: `bodies` and `joints` are the runs of
/// [`JointForest::bodies`] and [`JointForest::joints`] from one tree start to
/// another (`first_body` is where `bodies` starts), `joint(color, index)`
/// the joint sim of a link (each reached by this run alone). Writes the
/// joints' accumulated point impulses and their bodies' velocities.
pub(crate) fn solve_trees<'a>(
    bodies: &mut [TreeBody],
    joints: &mut [TreeJoint],
    first_body: usize,
    links: &[Link],
    joint: impl Fn(usize, usize) -> &'a mut JointSim,
    states: &mut [BodyState],
    use_bias: bool,
) {
    let side = |s: u32| (s != NONE).then(|| s as usize - first_body);
    let sim_of = |j: &TreeJoint| {
        let link = links[j.link as usize];
        joint(link.color as usize, link.index as usize)
    };
    // Each body's inverse mass, from any of its joints.
    for j in joints.iter() {
        let base = &sim_of(j).base;
        for (s, m, i) in [
            (j.side_a, base.inv_mass_a, base.inv_i_a),
            (j.side_b, base.inv_mass_b, base.inv_i_b),
        ] {
            if let Some(s) = side(s) {
                let (m, i) = (f64::from(m), f64::from(i));
                bodies[s].w = [[m, 0.0, 0.0], [0.0, m, 0.0], [0.0, 0.0, i]];
                bodies[s].t = [0.0; 3];
            }
        }
    }
    // Factor and forward substitution, joint by joint in elimination order.
    for j in joints.iter_mut() {
        let base = &sim_of(j).base;
        let pair = Pair::load(base, states);
        let (ra, rb) = pair.anchors(base);
        let soft = if use_bias {
            base.softness
        } else {
            Softness::RIGID
        };
        let rhs = pair.point_velocity(ra, rb) + pair.point_error(base, ra, rb) * soft.bias_rate;
        (j.ra, j.rb) = (ra, rb);
        j.ja = jacobian(-1.0, ra);
        j.jb = jacobian(1.0, rb);
        let mut pivot = [[0.0; 2]; 2];
        let mut z = [f64::from(rhs.x), f64::from(rhs.y)];
        for (s, jac, a) in [(j.side_a, &j.ja, &mut j.aa), (j.side_b, &j.jb, &mut j.ab)] {
            if let Some(s) = side(s) {
                *a = times(jac, &bodies[s].w);
                let k = times_t(a, jac);
                let seen = apply(jac, &bodies[s].t);
                pivot = [
                    [pivot[0][0] + k[0][0], pivot[0][1] + k[0][1]],
                    [pivot[1][0] + k[1][0], pivot[1][1] + k[1][1]],
                ];
                z = [z[0] - seen[0], z[1] - seen[1]];
            }
        }
        j.s_inv = inverse(&pivot);
        j.g = mul2(&j.s_inv, z);
        for (s, a) in [(j.side_a, &j.aa), (j.side_b, &j.ab)] {
            if let Some(s) = side(s) {
                let body = &mut bodies[s];
                add_transposed(&mut body.t, a, j.g);
                // W −= Aᵀ S⁻¹ A: the joint's hold on the body is gone from
                // what the joints left at the body see.
                let sa = [
                    mul2(&j.s_inv, [a[0][0], a[1][0]]),
                    mul2(&j.s_inv, [a[0][1], a[1][1]]),
                    mul2(&j.s_inv, [a[0][2], a[1][2]]),
                ];
                for (r, row) in body.w.iter_mut().enumerate() {
                    for (c, v) in row.iter_mut().enumerate() {
                        *v -= a[0][r] * sa[c][0] + a[1][r] * sa[c][1];
                    }
                }
            }
        }
    }
    // Back substitution, last joint first.
    for body in bodies.iter_mut() {
        body.t = [0.0; 3];
    }
    for j in joints.iter_mut().rev() {
        let mut c = [0.0; 2];
        for (s, a) in [(j.side_a, &j.aa), (j.side_b, &j.ab)] {
            if let Some(s) = side(s) {
                let seen = apply(a, &bodies[s].t);
                c = [c[0] + seen[0], c[1] + seen[1]];
            }
        }
        let back = mul2(&j.s_inv, c);
        j.g = [j.g[0] - back[0], j.g[1] - back[1]];
        for (s, jac) in [(j.side_a, &j.ja), (j.side_b, &j.jb)] {
            if let Some(s) = side(s) {
                add_transposed(&mut bodies[s].t, jac, j.g);
            }
        }
    }
    // Each joint takes its soft impulse from the coupled solution, as
    // `Pair::solve_point` does from its own.
    for j in joints.iter() {
        let JointSim { base, kind } = sim_of(j);
        let JointKind::Revolute(revolute) = kind else {
            continue;
        };
        let soft = if use_bias {
            base.softness
        } else {
            Softness::RIGID
        };
        let y = Vec2::new(j.g[0] as f32, j.g[1] as f32);
        let accumulated = &mut revolute.linear_impulse;
        let impulse = Vec2::new(
            -soft.mass_scale * y.x - soft.impulse_scale * accumulated.x,
            -soft.mass_scale * y.y - soft.impulse_scale * accumulated.y,
        );
        *accumulated += impulse;
        let mut pair = Pair::load(base, states);
        pair.apply_point(impulse, j.ra, j.rb);
        pair.store(base, states);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Which links a forest puts in trees, worked out directly: the
    /// components of the bodies over all links (breadth first), each judged
    /// on its own: a loop (as many links between its bodies as bodies), a
    /// body holding more than `MAX_TREE_DEGREE` joints, more point rows than
    /// freedoms, or fewer than `MIN_TREE_JOINTS` joints keep its links row
    /// by row.
    fn tree_links_by_components(n: usize, links: &[(u32, u32)]) -> Vec<bool> {
        let mut component = vec![NONE; n];
        let mut degree = vec![0u32; n];
        for &(a, b) in links {
            for end in [a, b] {
                if end != NONE {
                    degree[end as usize] += 1;
                }
            }
        }
        let mut verdicts = Vec::new();
        for first in 0..n {
            if component[first] != NONE {
                continue;
            }
            let c = verdicts.len() as u32;
            component[first] = c;
            let mut queue = vec![first as u32];
            let mut bodies = 0u32;
            let mut high = false;
            while let Some(body) = queue.pop() {
                bodies += 1;
                high |= degree[body as usize] > MAX_TREE_DEGREE;
                for &(a, b) in links {
                    let other = if a == body {
                        b
                    } else if b == body {
                        a
                    } else {
                        continue;
                    };
                    if other != NONE && component[other as usize] == NONE {
                        component[other as usize] = c;
                        queue.push(other);
                    }
                }
            }
            let mut joints = 0u32;
            let mut inner = 0u32;
            for &(a, b) in links {
                let here = |end: u32| end != NONE && component[end as usize] == c;
                if here(a) || here(b) {
                    joints += 1;
                    inner += u32::from(here(a) && here(b));
                }
            }
            let tree =
                inner < bodies && !high && 2 * joints <= 3 * bodies && joints >= MIN_TREE_JOINTS;
            verdicts.push(tree);
        }
        links
            .iter()
            .map(|&(a, b)| {
                let body = if a == NONE { b } else { a };
                verdicts[component[body as usize] as usize]
            })
            .collect()
    }

    /// The forest keeps its trees between steps only when a fresh search
    /// would find the same ones: `build` checks that on every step it keeps
    /// them (here and in debug builds), over chains, a branching hub and a
    /// loop on two workers while joints are made and destroyed, bodies
    /// locked and unlocked, turned kinematic and back, put to sleep and woken,
    /// and the world restored from a snapshot. Both kinds of step happen.
    #[test]
    fn kept_trees_match_a_fresh_search() {
        use crate::collision::make_box;
        use crate::{
            BodyDef, BodyId, BodyType, JointDef, MotionLocks, RevoluteJointDef, ShapeDef, World,
            WorldDef,
        };
        let mut world = World::new(&WorldDef {
            worker_count: 2,
            ..WorldDef::default()
        })
        .unwrap();
        let ground = world.create_body(&BodyDef::default()).unwrap();
        let link_box = make_box(0.5, 0.1).unwrap();
        let body_at = |world: &mut World, x: f32, y: f32| -> BodyId {
            // A `Pos` is a `Vec2` unless the build has `large-world`.
            #[allow(clippy::useless_conversion)]
            let def = BodyDef {
                body_type: BodyType::Dynamic,
                position: Vec2::new(x, y).into(),
                ..BodyDef::default()
            };
            let b = world.create_body(&def).unwrap();
            world
                .create_polygon_shape(b, &ShapeDef::default(), &link_box)
                .unwrap();
            b
        };
        let pin_at = |world: &mut World, a: BodyId, b: BodyId, anchor_a: Vec2, anchor_b: Vec2| {
            let def = RevoluteJointDef {
                base: JointDef {
                    body_a: a,
                    body_b: b,
                    local_anchor_a: anchor_a,
                    local_anchor_b: anchor_b,
                    ..JointDef::default()
                },
                ..RevoluteJointDef::default()
            };
            world.create_revolute_joint(&def).unwrap()
        };
        let pin = |world: &mut World, a: BodyId, b: BodyId, anchor_a: Vec2| {
            pin_at(world, a, b, anchor_a, Vec2::new(-0.5, 0.0))
        };
        // Four chains of six links hanging from the ground, 10 m apart, the
        // last one's links also tied in a loop; a hub with three arms.
        let mut chains = Vec::new();
        for k in 0..4 {
            let x0 = 10.0 * k as f32;
            let mut links = Vec::new();
            let mut joints = Vec::new();
            for i in 0..6 {
                let b = body_at(&mut world, x0 + 0.5 + i as f32, 20.0);
                let (prev, anchor) = match links.last() {
                    Some(&prev) => (prev, Vec2::new(0.5, 0.0)),
                    None => (ground, Vec2::new(x0, 20.0)),
                };
                joints.push(pin(&mut world, prev, b, anchor));
                links.push(b);
            }
            if k == 3 {
                joints.push(pin(&mut world, links[5], links[0], Vec2::new(0.5, 0.0)));
            }
            chains.push((links, joints));
        }
        let hub = body_at(&mut world, -10.0, 20.0);
        for arm in 0..3 {
            let b = body_at(&mut world, -9.0, 21.0 + arm as f32);
            pin(&mut world, hub, b, Vec2::new(0.5, 0.0));
        }
        // A bridge of two links pinned at both ends: six point rows on six
        // freedoms, a tree while neither link is locked in rotation.
        let bridge = [
            body_at(&mut world, 40.5, 10.0),
            body_at(&mut world, 41.5, 10.0),
        ];
        pin(&mut world, ground, bridge[0], Vec2::new(40.0, 10.0));
        pin(&mut world, bridge[0], bridge[1], Vec2::new(0.5, 0.0));
        pin_at(
            &mut world,
            ground,
            bridge[1],
            Vec2::new(42.0, 10.0),
            Vec2::new(0.5, 0.0),
        );
        let mut saved = None;
        for step in 0..400u32 {
            // Chains 0 and 1 (the same shape) take turns to sleep; the one
            // worked on changes every 50 steps.
            let swap = |world: &mut World, wake: BodyId, sleep: BodyId| {
                world.body_mut(wake).unwrap().set_awake(true);
                world.body_mut(sleep).unwrap().set_awake(false);
            };
            let (first, second) = (chains[0].0[0], chains[1].0[0]);
            let (links, joints) = &mut chains[(step / 50 % 4) as usize];
            match step % 50 {
                5 => {
                    // Cut the chain in the middle, then join it again.
                    let j = joints.remove(3);
                    world.destroy_joint(j).unwrap();
                }
                12 => {
                    let j = pin(&mut world, links[2], links[3], Vec2::new(0.5, 0.0));
                    joints.insert(3, j);
                }
                19 | 23 => {
                    let angular_z = step % 50 == 19;
                    let locks = MotionLocks {
                        angular_z,
                        ..MotionLocks::default()
                    };
                    world.body_mut(links[4]).unwrap().set_motion_locks(locks);
                    world.body_mut(bridge[1]).unwrap().set_motion_locks(locks);
                }
                26 => {
                    let mut body = world.body_mut(links[1]).unwrap();
                    body.set_body_type(BodyType::Kinematic).unwrap();
                }
                29 => {
                    let mut body = world.body_mut(links[1]).unwrap();
                    body.set_body_type(BodyType::Dynamic).unwrap();
                }
                // The awake bodies move places, but not their number.
                33 => world.body_mut(first).unwrap().set_awake(false),
                37 => swap(&mut world, first, second),
                41 => swap(&mut world, second, first),
                45 => world.body_mut(first).unwrap().set_awake(true),
                _ => {}
            }
            if step == 120 {
                saved = Some((world.snapshot(), chains.clone()));
            }
            if step == 260 {
                let (snapshot, then) = saved.as_ref().unwrap();
                world.restore(snapshot).unwrap();
                chains.clone_from(then);
            }
            world.step(1.0 / 60.0, 4).unwrap();
        }
        let (searches, kept) = world.scratch.joint_forest.counts;
        assert!(
            searches >= 20 && kept >= 100,
            "{searches} searches, {kept} kept"
        );
    }

    /// `find_trees` (the union–find over the bodies of low degree) marks
    /// the same links as the components worked out directly, on random
    /// joint graphs: chains, loops, hubs of degree 3 and more, bodies pinned
    /// to the ground (a `NONE` end).
    #[test]
    fn find_trees_agrees_with_the_components() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |below: u32| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 33) % u64::from(below)) as u32
        };
        let mut forest = JointForest::default();
        let mut trees = 0;
        for _ in 0..2000 {
            let n = 2 + next(10) as usize;
            let link_count = 1 + next(n as u32 + 3);
            let mut links = Vec::new();
            for _ in 0..link_count {
                let a = next(n as u32 + 1);
                let b = next(n as u32 + 1);
                let (a, b) = (
                    if a == n as u32 { NONE } else { a },
                    if b == n as u32 { NONE } else { b },
                );
                if a != b {
                    links.push((a, b));
                }
            }
            let states = vec![
                BodyState {
                    flags: flags::DYNAMIC,
                    ..BodyState::IDENTITY
                };
                n
            ];
            forest.links.clear();
            forest.links.extend(links.iter().map(|&(a, b)| Link {
                color: 0,
                index: 0,
                a,
                b,
                tree: false,
            }));
            let any = forest.find_trees(&states);
            let expected = tree_links_by_components(n, &links);
            let found: Vec<bool> = forest.links.iter().map(|link| link.tree).collect();
            assert_eq!(found, expected, "{n} bodies, links {links:?}");
            assert_eq!(any, expected.iter().any(|&t| t));
            trees += usize::from(any);
        }
        // The random graphs hold trees and non-trees alike.
        assert!(trees > 200 && trees < 1800, "{trees} of 2000 with trees");
    }
}
