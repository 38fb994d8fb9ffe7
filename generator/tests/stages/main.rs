//! The generator's stages, each tested through its public API: one test binary for all of them
//! (a binary per file would link the generator nine times over).

mod blocks;
mod bundles;
mod inline_json;
mod output;
mod plan;
mod preview;
mod render;
mod sweep;
mod view;
