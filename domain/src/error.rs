//! Load errors that name the file, the item and the field, collected so a bad export reports
//! every problem at once.

use std::fmt;

/// The most characters of a file, item or field name an error keeps.
const MAX_PART_CHARS: usize = 200;
/// The most characters of an error's message.
const MAX_MESSAGE_CHARS: usize = 500;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    pub file: String,
    pub item: String,
    pub field: String,
    pub message: String,
}

impl LoadError {
    pub fn new(
        file: impl Into<String>,
        item: impl Into<String>,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> LoadError {
        // Every part may quote export data: each is cut short, so a 10 MB value never becomes a
        // 10 MB error line.
        let cut = |text: String, max| crate::limits::clip(&text, max);
        LoadError {
            file: cut(file.into(), MAX_PART_CHARS),
            item: cut(item.into(), MAX_PART_CHARS),
            field: cut(field.into(), MAX_PART_CHARS),
            message: cut(message.into(), MAX_MESSAGE_CHARS),
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}: {}: {}",
            self.file, self.item, self.field, self.message
        )
    }
}

#[derive(Debug, Default, Clone)]
pub struct LoadErrors(pub Vec<LoadError>);

impl LoadErrors {
    pub fn push(&mut self, e: LoadError) {
        self.0.push(e);
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn extend(&mut self, other: LoadErrors) {
        self.0.extend(other.0);
    }
    /// `Ok(value)` when nothing was reported.
    pub fn into_result<T>(self, value: T) -> Result<T, LoadErrors> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            Err(self)
        }
    }
}

impl fmt::Display for LoadErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} problem(s) in the export:", self.0.len())?;
        for e in &self.0 {
            writeln!(f, "  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadErrors {}
