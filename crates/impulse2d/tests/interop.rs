//! Tests of the optional features, through the public API:
//! `cargo test -p impulse2d --features glam,mint,serde --test interop`.
//! Without a feature its module is compiled out.

#[cfg(feature = "serde")]
#[path = "common/build.rs"]
mod build;

#[cfg(feature = "glam")]
mod glam_interop {
    use impulse2d::{Error, Mat22, Rot, Transform, Vec2};

    #[test]
    fn vectors_and_matrices_round_trip_bit_for_bit() {
        let v = Vec2::new(1.25, -0.1);
        let g: glam::Vec2 = v.into();
        assert_eq!((g.x, g.y), (1.25, -0.1));
        assert_eq!(Vec2::from(g), v);

        let m = Mat22::new(Vec2::new(1.0, 2.0), Vec2::new(3.0, 4.0));
        let gm: glam::Mat2 = m.into();
        assert_eq!(gm.x_axis, glam::Vec2::new(1.0, 2.0));
        assert_eq!(gm.y_axis, glam::Vec2::new(3.0, 4.0));
        // Column-major in both: multiplying a vector agrees exactly.
        let x = Vec2::new(0.5, -2.0);
        assert_eq!(Vec2::from(gm * glam::Vec2::from(x)), m.mul_vec(x));
        assert_eq!(Mat22::from(gm), m);
    }

    #[test]
    fn a_rotation_is_the_rotation_matrix_and_converts_back_exactly() {
        let q = Rot::from_angle(0.7);
        let m: glam::Mat2 = q.into();
        assert_eq!(m.x_axis, glam::Vec2::new(q.c, q.s));
        assert_eq!(m.y_axis, glam::Vec2::new(-q.s, q.c));
        // The same matrix as glam builds from the angle, up to glam's own
        // trigonometry.
        let reference = glam::Mat2::from_angle(0.7);
        assert!(
            (m - reference)
                .abs()
                .to_cols_array()
                .iter()
                .all(|e| *e < 1e-6)
        );
        let v = Vec2::new(3.0, -1.0);
        let rotated = Vec2::from(m * glam::Vec2::from(v));
        assert!((rotated - q.rotate(v)).length() < 1e-6);
        assert_eq!(Rot::try_from(m).unwrap(), q);
        assert_eq!(Rot::try_from(glam::Mat2::IDENTITY).unwrap(), Rot::IDENTITY);
    }

    #[test]
    fn a_matrix_that_is_not_a_rotation_is_rejected() {
        let scaled = glam::Mat2::from_cols(glam::Vec2::new(2.0, 0.0), glam::Vec2::new(0.0, 2.0));
        assert!(matches!(
            Rot::try_from(scaled),
            Err(Error::InvalidGeometry(_))
        ));
        let reflected = glam::Mat2::from_cols(glam::Vec2::X, glam::Vec2::NEG_Y);
        assert!(Rot::try_from(reflected).is_err());
        let sheared = glam::Mat2::from_cols(glam::Vec2::X, glam::Vec2::new(0.1, 1.0));
        assert!(Rot::try_from(sheared).is_err());
        let nan = glam::Mat2::from_cols(glam::Vec2::NAN, glam::Vec2::Y);
        assert!(Rot::try_from(nan).is_err());
        let affine = glam::Affine2::from_scale(glam::Vec2::splat(3.0));
        assert!(Transform::try_from(affine).is_err());
    }

    #[test]
    fn a_transform_is_the_same_affine_map() {
        let xf = Transform::new(Vec2::new(4.0, -2.5), Rot::from_angle(-1.1));
        let a: glam::Affine2 = xf.into();
        assert_eq!(a.translation, glam::Vec2::new(4.0, -2.5));
        let p = Vec2::new(0.25, 7.0);
        let moved = Vec2::from(a.transform_point2(p.into()));
        assert!((moved - xf.apply(p)).length() < 1e-5);
        assert_eq!(Transform::try_from(a).unwrap(), xf);
    }
}

#[cfg(feature = "mint")]
mod mint_interop {
    use impulse2d::{Error, Mat22, Rot, Transform, Vec2};

    #[test]
    fn vectors_and_points_round_trip_bit_for_bit() {
        let v = Vec2::new(-3.5, 1.0e-7);
        let mv: mint::Vector2<f32> = v.into();
        assert_eq!((mv.x, mv.y), (-3.5, 1.0e-7));
        assert_eq!(Vec2::from(mv), v);
        let mp: mint::Point2<f32> = v.into();
        assert_eq!((mp.x, mp.y), (-3.5, 1.0e-7));
        assert_eq!(Vec2::from(mp), v);
        // IntoMint names the mint type.
        let via_trait: <Vec2 as mint::IntoMint>::MintType = v.into();
        assert_eq!(via_trait, mv);
    }

    #[test]
    fn matrices_keep_their_columns_in_either_layout() {
        let m = Mat22::new(Vec2::new(1.0, 2.0), Vec2::new(3.0, 4.0));
        let col: mint::ColumnMatrix2<f32> = m.into();
        assert_eq!((col.x.x, col.x.y, col.y.x, col.y.y), (1.0, 2.0, 3.0, 4.0));
        assert_eq!(Mat22::from(col), m);
        // Row-major: the first row is (m11, m12) = (cx.x, cy.x).
        let row: mint::RowMatrix2<f32> = m.into();
        assert_eq!((row.x.x, row.x.y, row.y.x, row.y.y), (1.0, 3.0, 2.0, 4.0));
        assert_eq!(Mat22::from(row), m);
    }

    #[test]
    fn rotations_and_transforms_convert_exactly() {
        let q = Rot::from_angle(2.0);
        let m: mint::ColumnMatrix2<f32> = q.into();
        assert_eq!((m.x.x, m.x.y, m.y.x, m.y.y), (q.c, q.s, -q.s, q.c));
        assert_eq!(Rot::try_from(m).unwrap(), q);

        let xf = Transform::new(Vec2::new(1.5, -9.0), q);
        let a: mint::ColumnMatrix2x3<f32> = xf.into();
        assert_eq!((a.z.x, a.z.y), (1.5, -9.0));
        assert_eq!((a.x.x, a.x.y), (q.c, q.s));
        assert_eq!(Transform::try_from(a).unwrap(), xf);
    }

    #[test]
    fn matrices_that_are_not_rotations_are_rejected() {
        let v = |x, y| mint::Vector2 { x, y };
        let scaled = mint::ColumnMatrix2 {
            x: v(0.5, 0.0),
            y: v(0.0, 0.5),
        };
        assert!(matches!(
            Rot::try_from(scaled),
            Err(Error::InvalidGeometry(_))
        ));
        let reflected = mint::ColumnMatrix2 {
            x: v(1.0, 0.0),
            y: v(0.0, -1.0),
        };
        assert!(Rot::try_from(reflected).is_err());
        let affine = mint::ColumnMatrix2x3 {
            x: v(1.0, 0.0),
            y: v(0.2, 1.0),
            z: v(0.0, 0.0),
        };
        assert!(Transform::try_from(affine).is_err());
    }
}

#[cfg(feature = "serde")]
mod serde_interop {
    use super::build;
    use serde::Serialize;
    use serde::de::DeserializeOwned;
    use std::fmt::Debug;

    use impulse2d::collision::{
        Aabb, Capsule, Circle, Polygon, Segment, compute_hull, make_box, make_offset_box,
        make_offset_polygon, make_offset_rounded_box, make_polygon,
    };
    use impulse2d::math::{Mat22, Rot, Sweep, Transform, Vec2};
    use impulse2d::{
        BodyDef, BodyType, ChainDef, DistanceJointDef, ExplosionDef, Filter, FilterJointDef,
        JointDef, MotionLocks, MotorJointDef, MouseJointDef, PrismaticJointDef, RevoluteJointDef,
        ShapeDef, WeldJointDef, WheelJointDef, WorldDef,
    };

    fn round_trip<T: Serialize + DeserializeOwned>(value: &T) -> T {
        let text = serde_json::to_string(value).unwrap();
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// `T`'s default survives the JSON round trip unchanged.
    fn default_round_trips<T: Serialize + DeserializeOwned + Default + PartialEq + Debug>() {
        assert_eq!(round_trip(&T::default()), T::default());
    }

    fn read<T: DeserializeOwned>(text: &str) -> serde_json::Result<T> {
        serde_json::from_str(text)
    }

    #[test]
    fn math_types_round_trip_bit_for_bit() {
        // Awkward values: a decimal that f32 cannot hold, a subnormal, -0,
        // the largest finite f32.
        let v = Vec2::new(0.1, -1.0e-40);
        let back = round_trip(&v);
        assert_eq!(
            (back.x.to_bits(), back.y.to_bits()),
            (v.x.to_bits(), v.y.to_bits())
        );
        let z = round_trip(&Vec2::new(-0.0, f32::MAX));
        assert_eq!((z.x.to_bits(), z.y), ((-0.0f32).to_bits(), f32::MAX));
        assert_eq!(
            serde_json::to_string(&Vec2::new(1.5, -2.0)).unwrap(),
            r#"{"x":1.5,"y":-2.0}"#
        );

        let q = Rot::from_angle(1.234);
        assert_eq!(round_trip(&q), q);
        let xf = Transform::new(Vec2::new(3.3, -7.7), Rot::from_angle(-2.5));
        assert_eq!(round_trip(&xf), xf);
        let m = Mat22::new(Vec2::new(1.0, 0.3), Vec2::new(-0.7, 2.0));
        assert_eq!(round_trip(&m), m);
        let sweep = Sweep {
            local_center: Vec2::new(0.1, 0.2),
            c1: Vec2::new(1.0, 2.0),
            c2: Vec2::new(3.0, 4.0),
            a1: 0.5,
            a2: 7.0,
        };
        assert_eq!(round_trip(&sweep), sweep);
        let aabb = Aabb {
            lower: Vec2::new(-1.0, -2.0),
            upper: Vec2::new(3.0, 0.25),
        };
        assert_eq!(round_trip(&aabb), aabb);
        // Not finite: JSON writes null, which does not read back as a number.
        let nan = serde_json::to_string(&Vec2::new(f32::NAN, 0.0)).unwrap();
        assert!(read::<Vec2>(&nan).is_err());
    }

    #[test]
    fn circles_capsules_and_segments_are_checked_when_read() {
        let circle = Circle::new(Vec2::new(0.5, -0.25), 0.3).unwrap();
        assert_eq!(round_trip(&circle), circle);
        let capsule = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.1), 0.2).unwrap();
        assert_eq!(round_trip(&capsule), capsule);
        let segment = Segment::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.1)).unwrap();
        assert_eq!(round_trip(&segment), segment);

        assert!(read::<Circle>(r#"{"center":{"x":0,"y":0},"radius":-1}"#).is_err());
        assert!(read::<Circle>(r#"{"center":{"x":1e6,"y":0},"radius":1}"#).is_err());
        let e =
            read::<Capsule>(r#"{"center1":{"x":0,"y":0},"center2":{"x":0,"y":0},"radius":0.5}"#)
                .unwrap_err();
        assert!(e.to_string().contains("capsule centres"), "{e}");
        assert!(read::<Segment>(r#"{"point1":{"x":0,"y":0},"point2":{"x":0.001,"y":0}}"#).is_err());
    }

    fn sample_polygons() -> Vec<Polygon> {
        let hull = compute_hull(&[
            Vec2::new(-1.0, -0.5),
            Vec2::new(1.3, -0.4),
            Vec2::new(0.2, 1.7),
            Vec2::new(-0.9, 0.8),
            Vec2::new(1.1, 0.9),
        ])
        .unwrap();
        let placed = Transform::new(Vec2::new(-40.0, 12.5), Rot::from_angle(0.3));
        vec![
            make_box(0.5, 0.25).unwrap(),
            make_offset_rounded_box(1.0, 0.1, Vec2::new(3.0, -2.0), Rot::from_angle(0.7), 0.05)
                .unwrap(),
            // Far from the origin, where placed corners round by millimetres.
            make_offset_box(
                0.05,
                0.02,
                Vec2::new(99_000.0, -98_765.4),
                Rot::from_angle(2.2),
            )
            .unwrap(),
            make_polygon(&hull, 0.1).unwrap(),
            make_offset_polygon(&hull, placed, 0.0).unwrap(),
            make_box(2.0, 1.0)
                .unwrap()
                .transformed(Transform::new(Vec2::new(500.0, 7.0), Rot::from_angle(-1.9))),
        ]
    }

    #[test]
    fn polygons_round_trip_to_equal_valid_polygons() {
        for polygon in sample_polygons() {
            let back = round_trip(&polygon);
            assert_eq!(back, polygon);
        }
    }

    proptest::proptest! {
        /// Whatever way a valid polygon was made, it reads back equal: boxes
        /// (rotated axis normals, centre as centroid) anywhere within HUGE,
        /// hulls placed by a transform, and polygons moved afterwards.
        #[test]
        fn any_polygon_round_trips(
            hx in 0.003f32..50.0,
            hy in 0.003f32..50.0,
            cx in -99_000.0f32..99_000.0,
            cy in -99_000.0f32..99_000.0,
            angle in -4.0f32..4.0,
            radius in 0.0f32..1.0,
            points in proptest::collection::vec((-5.0f32..5.0, -5.0f32..5.0), 3..8),
            shift in (-500.0f32..500.0, -500.0f32..500.0),
        ) {
            let center = Vec2::new(cx, cy);
            let q = Rot::from_angle(angle);
            if let Ok(b) = make_offset_rounded_box(hx, hy, center, q, radius) {
                proptest::prop_assert_eq!(round_trip(&b), b);
            }
            let points: Vec<Vec2> = points.into_iter().map(|(x, y)| Vec2::new(x, y)).collect();
            if let Ok(hull) = compute_hull(&points) {
                let xf = Transform::new(Vec2::new(cx, cy), q);
                if let Ok(p) = make_offset_polygon(&hull, xf, radius) {
                    proptest::prop_assert_eq!(round_trip(&p), p);
                }
                let moved = make_polygon(&hull, radius)
                    .unwrap()
                    .transformed(Transform::new(Vec2::new(shift.0, shift.1), q));
                proptest::prop_assert_eq!(round_trip(&moved), moved);
            }
        }
    }

    #[test]
    fn a_polygon_may_be_written_as_vertices_and_radius_only() {
        let text = r#"{"vertices":[{"x":0,"y":0},{"x":2,"y":0},{"x":2,"y":1},{"x":0,"y":1}],
                       "radius":0.25}"#;
        let p: Polygon = read(text).unwrap();
        assert_eq!(p.count(), 4);
        assert_eq!(p.radius(), 0.25);
        assert_eq!(p.centroid(), Vec2::new(1.0, 0.5));
        assert_eq!(p.normals()[0], Vec2::new(0.0, -1.0));
        assert_eq!(p.normals()[1], Vec2::new(1.0, 0.0));
    }

    /// Edits a written polygon and reads it back.
    fn read_edited(polygon: &Polygon, edit: impl FnOnce(&mut serde_json::Value)) -> String {
        let mut value = serde_json::to_value(polygon).unwrap();
        edit(&mut value);
        match serde_json::from_value::<Polygon>(value) {
            Ok(p) => panic!("an invalid polygon was read: {p:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn an_invalid_polygon_is_an_error() {
        let square = make_box(1.0, 1.0).unwrap();
        let v = |x: f32, y: f32| serde_json::json!({ "x": x, "y": y });
        // Clockwise.
        let e = read_edited(&square, |p| {
            p["vertices"].as_array_mut().unwrap().reverse();
            p["normals"].as_array_mut().unwrap().reverse();
        });
        assert!(e.contains("strictly convex"), "{e}");
        // A reflex corner.
        let e = read_edited(&square, |p| p["vertices"][2] = v(0.0, 0.0));
        assert!(e.contains("strictly convex"), "{e}");
        // Two vertices, nine vertices.
        let e = read_edited(&square, |p| {
            p["vertices"].as_array_mut().unwrap().truncate(2);
            p["normals"].as_array_mut().unwrap().truncate(2);
        });
        assert!(e.contains("3 to 8"), "{e}");
        let e = read_edited(&square, |p| {
            let circle: Vec<_> = (0..9)
                .map(|i| {
                    let (c, s) = impulse2d::math::cos_sin(i as f32 * 0.698);
                    v(c, s)
                })
                .collect();
            p["vertices"] = serde_json::Value::Array(circle);
        });
        assert!(e.contains("3 to 8"), "{e}");
        // Bad radius, a vertex beyond HUGE, a missing coordinate.
        let e = read_edited(&square, |p| p["radius"] = serde_json::json!(-0.5));
        assert!(e.contains("radius"), "{e}");
        let e = read_edited(&square, |p| p["vertices"][1] = v(2.0e5, -1.0));
        assert!(e.contains("vertex"), "{e}");
        read_edited(&square, |p| {
            p["vertices"][1] = serde_json::json!({ "x": 1.0 })
        });
        // Normals that are not the edges' outward unit normals, or too few.
        let e = read_edited(&square, |p| p["normals"][0] = v(0.0, 1.0));
        assert!(e.contains("normal"), "{e}");
        let e = read_edited(&square, |p| p["normals"][1] = v(0.999, 0.045));
        assert!(e.contains("normal"), "{e}");
        let e = read_edited(&square, |p| p["normals"][3] = v(-2.0, 0.0));
        assert!(e.contains("normal"), "{e}");
        let e = read_edited(&square, |p| {
            p["normals"].as_array_mut().unwrap().pop();
        });
        assert!(e.contains("normal"), "{e}");
        // A centroid away from the vertices' centroid.
        let e = read_edited(&square, |p| p["centroid"] = v(0.01, 0.0));
        assert!(e.contains("centroid"), "{e}");
    }

    #[test]
    fn ids_round_trip_and_still_name_their_object() {
        let mut world = build::world();
        let body = world.create_body(&BodyDef::default()).unwrap();
        let shape = build::add_circle(&mut world, body, 1.0);
        let body_back = round_trip(&body);
        assert_eq!(body_back, body);
        assert!(world.body(body_back).is_ok());
        assert_eq!(round_trip(&shape), shape);
        // Another world rejects it.
        let other = build::world();
        assert!(other.body(body_back).is_err());
        assert_eq!(
            round_trip(&impulse2d::JointId::default()),
            impulse2d::JointId::default()
        );
        assert_eq!(
            round_trip(&impulse2d::ChainId::default()),
            impulse2d::ChainId::default()
        );
    }

    #[test]
    fn defs_round_trip_and_missing_fields_take_their_defaults() {
        let body = BodyDef {
            body_type: BodyType::Kinematic,
            position: Vec2::new(1.0, 2.0),
            rotation: Rot::from_angle(0.4),
            angular_velocity: -3.0,
            motion_locks: MotionLocks {
                angular_z: true,
                ..Default::default()
            },
            user_data: u64::MAX,
            name: "crate".to_owned(),
            ..Default::default()
        };
        assert_eq!(round_trip(&body), body);
        let shape = ShapeDef {
            density: 2.5,
            filter: Filter {
                category_bits: 0b10,
                mask_bits: !0b100,
                group_index: -3,
            },
            enable_pre_solve_events: true,
            ..Default::default()
        };
        assert_eq!(round_trip(&shape), shape);
        let chain = ChainDef {
            points: vec![Vec2::ZERO, Vec2::X, Vec2::new(1.0, 1.0)],
            is_loop: true,
            ..Default::default()
        };
        assert_eq!(round_trip(&chain), chain);
        let world = WorldDef {
            gravity: Vec2::new(0.0, -3.7),
            enable_continuous: false,
            ..Default::default()
        };
        assert_eq!(round_trip(&world), world);
        default_round_trips::<ExplosionDef>();

        let base = JointDef {
            local_anchor_a: Vec2::new(0.5, 0.0),
            constraint_hertz: Some(30.0),
            ..Default::default()
        };
        let revolute = RevoluteJointDef {
            base,
            reference_angle: 0.25,
            ..Default::default()
        };
        assert_eq!(round_trip(&revolute), revolute);
        default_round_trips::<DistanceJointDef>();
        default_round_trips::<FilterJointDef>();
        default_round_trips::<MotorJointDef>();
        default_round_trips::<MouseJointDef>();
        default_round_trips::<PrismaticJointDef>();
        default_round_trips::<WeldJointDef>();
        default_round_trips::<WheelJointDef>();

        // Only what differs from the default need be written; enums by name.
        let partial: BodyDef =
            read(r#"{"body_type": "Dynamic", "position": {"x": 0, "y": 4}}"#).unwrap();
        assert_eq!(
            partial,
            BodyDef {
                body_type: BodyType::Dynamic,
                position: Vec2::new(0.0, 4.0),
                ..Default::default()
            }
        );
        let filter: Filter = read(r#"{"group_index": -1}"#).unwrap();
        assert_eq!(filter.mask_bits, Filter::default().mask_bits);
        assert!(read::<BodyType>(r#""Floating""#).is_err());
    }
}
