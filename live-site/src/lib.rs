//! The live site: the rebuild daemon that keeps the built site current, the servers of `dev` and
//! `serve` over it (compression, preview, the dev error overlay, Netlify's rules), and the deploys
//! that publish it to Netlify.

pub mod compress;
pub mod deploy;
pub mod dev_errors;
pub mod netlify;
pub mod preview_route;
pub mod rebuild;
pub mod site_server;
