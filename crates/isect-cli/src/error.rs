//! The command's one error type: a message and the exit code it ends with.

use std::fmt;

/// Exit code for bad input: an unreadable or invalid scene file, bad options.
pub const EXIT_BAD_INPUT: i32 = 2;
/// Exit code for a failure to write an output file.
pub const EXIT_OUTPUT: i32 = 1;

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
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}
