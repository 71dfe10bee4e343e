//! Error lines of the commands that go on past a bad input (`hash`, `hash
//! --check`, `mac --mode hmac` and Kupyna's MAC over files), so that one
//! problem is one line on stderr.

/// Error lines of a command that goes on past them. The first is held
/// back: if it stays the only one it becomes the command's final error
/// line, so one problem is one line on stderr; from the second on, each
/// is printed as it comes and a count ends the command.
#[derive(Default)]
pub struct Problems {
    held: Option<String>,
    count: usize,
}

impl Problems {
    pub fn report(&mut self, msg: String) {
        self.count += 1;
        if self.count == 1 {
            self.held = Some(msg);
            return;
        }
        self.flush();
        eprintln!("multiblock: error: {msg}");
    }

    pub fn count(&self) -> usize {
        self.count
    }

    /// Prints the held line (when a summary will end the command instead).
    pub fn flush(&mut self) {
        if let Some(first) = self.held.take() {
            eprintln!("multiblock: error: {first}");
        }
    }

    /// The final line: the one problem itself, or `count(n)` for several; `None` for none.
    pub fn summary(self, count: impl FnOnce(usize) -> String) -> Option<String> {
        match self.count {
            0 => None,
            1 => self.held,
            n => Some(count(n)),
        }
    }
}
