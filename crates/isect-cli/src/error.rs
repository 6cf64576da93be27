//! The command's one error type: a message and the exit code it ends with.

use std::fmt;

/// Exit code for bad input: an unreadable or invalid scene file, bad options.
pub const EXIT_BAD_INPUT: i32 = 2;
/// Exit code for a failure to write an output file.
pub const EXIT_OUTPUT: i32 = 1;
/// Exit code for a failure that is the command's own fault, not the input's: a
/// built-in scene (`demo`) that the library refuses. A bug to report.
pub const EXIT_INTERNAL: i32 = 3;

/// A failure of a command, printed as `isect: MESSAGE` on stderr.
#[derive(Debug)]
pub struct CliError {
    /// The process exit code.
    pub code: i32,
    /// What went wrong, for people.
    pub message: String,
}

impl CliError {
    /// Bad input (exit code [`EXIT_BAD_INPUT`]).
    pub fn input(message: impl Into<String>) -> Self {
        Self {
            code: EXIT_BAD_INPUT,
            message: message.into(),
        }
    }

    /// An output that could not be written (exit code [`EXIT_OUTPUT`]).
    pub fn output(message: impl Into<String>) -> Self {
        Self {
            code: EXIT_OUTPUT,
            message: message.into(),
        }
    }

    /// The command's own failure (exit code [`EXIT_INTERNAL`]).
    pub fn internal(message: impl Into<String>) -> Self {
        Self {
            code: EXIT_INTERNAL,
            message: message.into(),
        }
    }
}

/// The world's error as one message: a refused pose or shape reads
/// `World: FIELD ...` once (the world's error and the shape error it carries both
/// name the world).
pub fn world_message(e: &isect::world::WorldError) -> String {
    let text = e.to_string();
    match text.strip_prefix("World: World: ") {
        Some(rest) => format!("World: {rest}"),
        None => text,
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

#[cfg(test)]
mod tests {
    use super::*;
    use isect::world::WorldError;
    use isect::ShapeError;

    /// A pose the world refuses is named by the world once (the demo once printed
    /// "World: World: `pose.rotation` ...").
    #[test]
    fn world_errors_name_the_world_once() {
        let e = WorldError::Invalid(ShapeError::NotFinite {
            shape: "World",
            field: "pose.rotation",
        });
        let msg = world_message(&e);
        assert!(msg.starts_with("World: `pose.rotation`"), "{msg}");
        assert_eq!(msg.matches("World").count(), 1, "{msg}");
        let stale = WorldError::Full;
        assert_eq!(world_message(&stale), stale.to_string());
    }
}
