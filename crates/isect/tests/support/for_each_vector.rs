//! `for_each_vector!(body)`: runs one generic test body `fn body<V: Vector>()` as four
//! tests, for `Vec2`, `Vec3`, `DVec2` and `DVec3`.

macro_rules! for_each_vector {
    ($body:ident) => {
        mod $body {
            #[test]
            fn vec2() {
                super::$body::<glam::Vec2>();
            }
            #[test]
            fn vec3() {
                super::$body::<glam::Vec3>();
            }
            #[test]
            fn dvec2() {
                super::$body::<glam::DVec2>();
            }
            #[test]
            fn dvec3() {
                super::$body::<glam::DVec3>();
            }
        }
    };
}
