//! Found by the CLI work: `Compound::new(vec![])` reported "needs at least 1 distinct
//! points, got 0" — the error of a point set, not of a compound. It must say the
//! compound has no parts.

use isect::d2;
use isect::d3;
use isect::ShapeError;

/// An empty part list in 2D and 3D: a `Degenerate` error whose message says "no parts".
#[test]
fn empty_compound_says_no_parts() {
    let e2 = d2::Compound::new(Vec::new()).expect_err("empty");
    let e3 = d3::Compound::new(Vec::new()).expect_err("empty");
    for err in [e2, e3] {
        assert!(
            matches!(
                err,
                ShapeError::Degenerate {
                    shape: "Compound",
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(err.to_string().contains("no parts"), "{err}");
    }
}
