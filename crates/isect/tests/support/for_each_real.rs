//! `for_each_real!(body)`: runs the generic test `body::<f32>` and `body::<f64>` as two
//! tests, `body::f32` and `body::f64`. Include with `#[macro_use]`.

macro_rules! for_each_real {
    ($body:ident) => {
        mod $body {
            #[test]
            fn f32() {
                super::$body::<f32>();
            }
            #[test]
            fn f64() {
                super::$body::<f64>();
            }
        }
    };
}
