//! The template environment: loads `site-src/templates/`, registers `island()`, `sized()` and `srcset()`,
//! renders pages and injects each page's island stylesheets.

use crate::bundles::{Bundles, kebab};
use domain::html::html_formatter;
use minijinja::value::{Enumerator, Kwargs, Object, ObjectRepr};
use minijinja::{Environment, Error, ErrorKind, State, Value, context};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use walkdir::WalkDir;

/// Internal template that renders one product card through the card macro.
const CARD_TEMPLATE: &str = "_prerender/card.html";

thread_local! {
    /// Island ids are unique within a page: a prefix and a counter that restart for every page
    /// rendered on a thread. A cached fragment gets its own prefix, so its ids are the same on
    /// every page and never collide with the page's own.
    static ISLAND_SCOPE: RefCell<(String, usize)> = RefCell::new((String::from("i"), 0));
    /// Each thread renders its pages into one buffer that keeps its size: a page (~60 kB) is
    /// then written once, instead of into a string that doubles a dozen times as it grows.
    static PAGE_BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The sibling fragment this thread rendered last, by fragment epoch, name and key.
    static LAST_SIBLING_FRAGMENT: RefCell<Option<(SiblingKey, Fragment)>> = const { RefCell::new(None) };
    /// The islands of the page being rendered on this thread, in order, repeats included: each
    /// `island()` call adds its name, and a reused fragment the names it recorded. The page's
    /// island stylesheets come from these, not from scanning its ~60 kB of markup.
    static PAGE_ISLANDS: RefCell<Vec<Arc<str>>> = const { RefCell::new(Vec::new()) };
}

/// A rendered partial and the islands in it (added to each page that reuses it).
#[derive(Clone)]
struct Fragment {
    html: Value,
    islands: Arc<[Arc<str>]>,
}

impl Fragment {
    /// The markup, its islands counted as the page's.
    fn reused(&self) -> Value {
        PAGE_ISLANDS.with(|p| p.borrow_mut().extend(self.islands.iter().cloned()));
        self.html.clone()
    }
}

/// A sibling fragment's epoch, partial name and key.
type SiblingKey = (u64, String, String);

/// A new epoch for sibling fragments: unique in the process, so no thread ever reuses one that
/// another template set, or an earlier build of this one, rendered.
fn next_fragment_epoch() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Rendered layout fragments of the current build, by fragment name and key. Kept as safe-string
/// values, so every page after the first gets the markup by a reference count, not a copy.
type FragmentCache = Arc<Mutex<HashMap<(String, String), Fragment>>>;

#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    #[error("{path}: cannot read template: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("template {name}: {source}")]
    Syntax {
        name: String,
        source: minijinja::Error,
    },
}

pub struct Templates {
    pub env: Environment<'static>,
    fragments: FragmentCache,
    /// Changes whenever the fragments are forgotten, which forgets every thread's sibling fragment.
    sibling_epoch: Arc<AtomicU64>,
    /// Hash of every template file: part of every page's fingerprint.
    pub digest: [u8; 32],
}

impl Templates {
    pub fn load(dir: &Path) -> Result<Templates, TemplateError> {
        let mut env = Environment::new();
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Lenient);
        let mut files: Vec<_> = WalkDir::new(dir)
            .into_iter()
            .filter_map(Result::ok)
            // `mail/` holds the API's email templates (compiled into the API): a change there
            // must not change every page's fingerprint.
            .filter(|e| {
                e.file_type().is_file()
                    && !e.path().starts_with(dir.join("mail"))
                    && e.path()
                        .extension()
                        .is_some_and(|x| x == "html" || x == "xml" || x == "txt")
            })
            .collect();
        files.sort_by(|a, b| a.path().cmp(b.path()));
        let mut hasher = blake3::Hasher::new();
        for entry in files {
            let path = entry.path();
            let name = path
                .strip_prefix(dir)
                .unwrap_or(path)
                .to_string_lossy()
                .replace('\\', "/");
            let source = std::fs::read_to_string(path).map_err(|source| TemplateError::Read {
                path: path.display().to_string(),
                source,
            })?;
            hasher.update(name.as_bytes());
            hasher.update(source.as_bytes());
            env.add_template_owned(name.clone(), source)
                .map_err(|source| TemplateError::Syntax { name, source })?;
        }
        configure(&mut env);
        let fragments = FragmentCache::default();
        let cache = fragments.clone();
        env.add_function(
            "fragment",
            move |state: &State, name: String, key: String, vars: Kwargs| {
                fragment(&cache, state, name, key, vars)
            },
        );
        let sibling_epoch = Arc::new(AtomicU64::new(next_fragment_epoch()));
        let epoch = sibling_epoch.clone();
        env.add_function(
            "sibling_fragment",
            move |state: &State, name: String, key: String, vars: Kwargs| {
                sibling_fragment(&epoch, state, name, key, vars)
            },
        );
        if env.get_template("macros/card.html").is_ok() {
            env.add_template_owned(
                CARD_TEMPLATE,
                "{% from \"macros/card.html\" import card %}{{ card(c, 3) }}".to_string(),
            )
            .map_err(|source| TemplateError::Syntax {
                name: CARD_TEMPLATE.into(),
                source,
            })?;
        }
        Ok(Templates {
            env,
            fragments,
            sibling_epoch,
            digest: *hasher.finalize().as_bytes(),
        })
    }

    /// Forgets the rendered fragments: a new build may have new layout content (daemons reuse
    /// templates across rebuilds).
    pub fn clear_fragments(&self) {
        self.fragments
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        self.sibling_epoch
            .store(next_fragment_epoch(), Ordering::Relaxed);
    }

    /// The lazy-loading product card (`macros/card.html`) for one card value.
    pub fn render_card(&self, card: &search::Card) -> Result<String, Error> {
        self.env
            .get_template(CARD_TEMPLATE)?
            .render(context! { c => minijinja::value::Serde(card) })
    }

    /// Renders one page and puts its islands' stylesheets in place of `<!--island-styles-->`.
    pub fn render_page(
        &self,
        template: &str,
        ctx: Value,
        bundles: &Bundles,
    ) -> Result<String, Error> {
        self.render_page_parts(template, ctx, bundles, |parts| {
            String::from_utf8(parts.concat())
                .map_err(|e| Error::new(ErrorKind::InvalidOperation, format!("rendered page: {e}")))
        })?
    }

    /// Renders one page and hands `write` its bytes in order: the markup before
    /// `<!--island-styles-->`, the stylesheets of the islands it contains, and the rest. The
    /// page (~60 kB) stays in the thread's render buffer: a build writes and hashes the parts
    /// where they are instead of joining them into one more copy.
    pub fn render_page_parts<R>(
        &self,
        template: &str,
        ctx: Value,
        bundles: &Bundles,
        write: impl FnOnce(&[&[u8]; 3]) -> R,
    ) -> Result<R, Error> {
        ISLAND_SCOPE.with(|s| *s.borrow_mut() = (String::from("i"), 0));
        PAGE_ISLANDS.with(|p| p.borrow_mut().clear());
        let template = self.env.get_template(template)?;
        PAGE_BUFFER.with(|buffer| {
            let mut buffer = buffer.borrow_mut();
            buffer.clear();
            template.render_captured_to(ctx, &mut *buffer)?;
            let html = buffer.as_slice();
            let styles = PAGE_ISLANDS.with(|p| bundles.island_style_tags(&p.borrow()));
            let marker = ISLAND_STYLES_MARKER.as_bytes();
            let parts = match memchr::memmem::find(html, marker) {
                Some(at) => [&html[..at], styles.as_bytes(), &html[at + marker.len()..]],
                None => [html, &[][..], &[][..]],
            };
            Ok(write(&parts))
        })
    }
}

/// Where `render_page` puts a page's island stylesheets (in the layouts' `<head>`).
const ISLAND_STYLES_MARKER: &str = "<!--island-styles-->";

/// The functions, filters and escaping every page template relies on.
fn configure(env: &mut Environment<'static>) {
    env.add_function("island", island);
    env.add_function("sized", sized);
    env.add_function("srcset", srcset);
    env.add_filter("length", length);
    env.set_formatter(html_formatter);
}

/// `fragment(name, key, var=value, …)`: renders the partial `name` with only the given variables,
/// once per `key` per build, and reuses it: the header, menus and footer are the same on thousands
/// of pages of a market (rendered once per market and reused). Only the passed variables are visible to the partial, so a
/// cached fragment cannot pick up page-specific data by accident.
fn fragment(
    cache: &FragmentCache,
    state: &State,
    name: String,
    key: String,
    vars: Kwargs,
) -> Result<Value, Error> {
    let cache_key = (name.clone(), key);
    if let Some(fragment) = cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&cache_key)
    {
        return Ok(fragment.reused());
    }
    let fragment = render_partial(state, &name, &vars)?;
    let html = fragment.html.clone();
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(cache_key, fragment);
    Ok(html)
}

/// `sibling_fragment(name, key, var=value, …)`: like `fragment`, for markup that sibling pages
/// share (a product's related-product rails, the same on each of its colourways in a market):
/// the thread keeps only the last one it rendered and reuses it while `key` stays the same. The
/// plan lists siblings together and each worker takes runs of neighbouring pages, so this renders
/// once per run and holds one fragment per thread, where `fragment` would hold every product's.
fn sibling_fragment(
    epoch: &AtomicU64,
    state: &State,
    name: String,
    key: String,
    vars: Kwargs,
) -> Result<Value, Error> {
    let cache_key = (epoch.load(Ordering::Relaxed), name, key);
    let hit = LAST_SIBLING_FRAGMENT.with(|last| {
        last.borrow()
            .as_ref()
            .filter(|(k, _)| *k == cache_key)
            .map(|(_, fragment)| fragment.reused())
    });
    if let Some(html) = hit {
        return Ok(html);
    }
    let fragment = render_partial(state, &cache_key.1, &vars)?;
    let html = fragment.html.clone();
    LAST_SIBLING_FRAGMENT.with(|last| *last.borrow_mut() = Some((cache_key, fragment)));
    Ok(html)
}

/// Renders the partial `name` with only `vars`, its islands' ids under a prefix of its own (so
/// they are the same wherever the markup is reused and never collide with the page's).
fn render_partial(state: &State, name: &str, vars: &Kwargs) -> Result<Fragment, Error> {
    let ctx: BTreeMap<String, Value> = vars
        .args()
        .map(|k| Ok((k.to_string(), vars.get::<Value>(k)?)))
        .collect::<Result<_, Error>>()?;
    vars.assert_all_used()?;
    let prefix: String = name
        .rsplit('/')
        .next()
        .unwrap_or(name)
        .trim_end_matches(".html")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    let outer =
        ISLAND_SCOPE.with(|s| std::mem::replace(&mut *s.borrow_mut(), (format!("{prefix}-"), 0)));
    let islands_before = PAGE_ISLANDS.with(|p| p.borrow().len());
    let rendered = state
        .env()
        .get_template(name)
        .and_then(|t| t.render(Value::from_object(ctx)));
    ISLAND_SCOPE.with(|s| *s.borrow_mut() = outer);
    let islands = PAGE_ISLANDS.with(|p| p.borrow()[islands_before..].into());
    Ok(Fragment {
        html: Value::from_safe_string(rendered?),
        islands,
    })
}

/// Island props that carry their `<script>` JSON, written by serde from the typed values they were
/// built from: far cheaper than walking the template value, for props every product page has.
/// Templates read them as the map they are.
#[derive(Debug)]
pub struct PreparedProps {
    value: Value,
    /// None if serde refused the value; `island()` then serialises the template value and says why.
    json: Option<String>,
}

impl PreparedProps {
    pub fn new<T: serde::Serialize>(props: &T) -> PreparedProps {
        PreparedProps {
            value: Value::from(minijinja::value::Serde(props)),
            json: crate::inline_json::script_json(props).ok(),
        }
    }
}

impl Object for PreparedProps {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Map
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        self.value.get_item(key).ok().filter(|v| !v.is_undefined())
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        match self.value.try_iter() {
            Ok(keys) => Enumerator::Iter(Box::new(keys.collect::<Vec<_>>().into_iter())),
            Err(_) => Enumerator::Empty,
        }
    }
}

/// `island(name, props)`: the island wrapper with server markup and its props in an adjacent JSON script.
fn island(state: &State, name: String, props: Value) -> Result<Value, Error> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(Error::new(
            ErrorKind::InvalidOperation,
            format!("island name {name:?} must be PascalCase letters and digits"),
        ));
    }
    let prepared = props.downcast_object_ref::<PreparedProps>();
    let props = prepared.map_or(props.clone(), |p| p.value.clone());
    let partial = format!("islands/{}.html", kebab(&name));
    let inner = state
        .env()
        .get_template(&partial)?
        .render(context! { props => props.clone() })?;
    let json = match prepared.and_then(|p| p.json.clone()) {
        Some(json) => {
            // Tests build in debug: every prepared page there proves both ways give the same JSON.
            debug_assert_eq!(
                crate::inline_json::script_json(&props).ok().as_deref(),
                Some(json.as_str()),
                "island {name}: prepared props differ from their template value"
            );
            json
        }
        None => crate::inline_json::script_json(&props).map_err(|e| {
            Error::new(
                ErrorKind::InvalidOperation,
                format!("island {name} props: {e}"),
            )
        })?,
    };
    let id = ISLAND_SCOPE.with(|s| {
        let mut scope = s.borrow_mut();
        let id = format!("{}{}", scope.0, scope.1);
        scope.1 += 1;
        id
    });
    PAGE_ISLANDS.with(|p| p.borrow_mut().push(name.as_str().into()));
    Ok(Value::from_safe_string(format!(
        "<div data-island=\"{name}\" data-island-id=\"{id}\">{inner}</div><script type=\"application/json\" data-island-props=\"{id}\">{json}</script>"
    )))
}

/// `length` that, like Jinja2, treats a missing field as empty: content JSON from editors often
/// leaves optional lists out.
fn length(value: Value) -> Result<usize, Error> {
    if value.is_undefined() || value.is_none() {
        return Ok(0);
    }
    value.len().ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidOperation,
            format!("cannot take the length of {}", value.kind()),
        )
    })
}

/// `sized(url, width)`: `url` resized by the media host to `width` pixels wide (fmt=auto, qlt=default).
pub fn sized(url: String, width: u32) -> String {
    sized_url(&url, width)
}

fn sized_url(url: &str, width: u32) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}w={width}&fmt=auto&qlt=default")
}

/// `srcset(url, widths)`: the media host's resize parameters for each width.
pub fn srcset(url: String, widths: Vec<u32>) -> String {
    widths
        .iter()
        .map(|&w| format!("{} {w}w", sized_url(&url, w)))
        .collect::<Vec<_>>()
        .join(", ")
}
