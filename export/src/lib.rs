//! The export format (docs/formats.md) read in one place: the file readers (`read`), the raw
//! records and their ids (`raw`, failing with `error::FetchError`), the source model a rebuild
//! daemon keeps in memory (`model`, with `keyed_file`), where a daemon gets fresh items (`source`),
//! and the one step that validates them into a build's inputs (`validate`).
//! Nothing else reads export files; the generator, the API, the importer and the daemon call this.

pub mod change;
pub mod error;
pub mod keyed_file;
pub mod model;
pub mod raw;
pub mod read;
pub mod source;
pub mod validate;

pub use change::Change;
pub use read::load_export;
pub use validate::Inputs;
