//! The template environment: island props stay inside their script, and images get the media
//! host's sizes.

use generator::render::{Templates, sized, srcset};
use minijinja::context;

/// A directory holding `files` (relative path, contents), their folders made.
fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in files {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

#[test]
fn island_props_cannot_break_out_of_their_script() {
    let dir = dir_with(&[
        ("islands/demo.html", "<p>{{ props.text }}</p>"),
        ("page.html", "{{ island('Demo', props) }}"),
    ]);
    let templates = Templates::load(dir.path()).unwrap();
    let html = templates
        .env
        .get_template("page.html")
        .unwrap()
        .render(context! { props => context! { text => "</script><!--x" } })
        .unwrap();
    let json = html
        .split("data-island-props=\"i0\">")
        .nth(1)
        .unwrap()
        .trim_end_matches("</script>");
    assert!(!json.contains('<'), "{json}");
    let parsed: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(parsed["text"], "</script><!--x");
    assert!(html.starts_with("<div data-island=\"Demo\" data-island-id=\"i0\"><p>&lt;/script&gt;"));
}

#[test]
fn srcset_lists_every_width_with_media_parameters() {
    assert_eq!(
        srcset("/m/a.svg".into(), vec![200, 453]),
        "/m/a.svg?w=200&fmt=auto&qlt=default 200w, /m/a.svg?w=453&fmt=auto&qlt=default 453w"
    );
    assert!(srcset("/m/a.svg?v=1".into(), vec![200]).starts_with("/m/a.svg?v=1&w=200"));
    assert_eq!(
        sized("/m/a.svg".into(), 68),
        "/m/a.svg?w=68&fmt=auto&qlt=default"
    );
}

/// Renders `page.html` (which prints the sibling fragment keyed by `key`) with `name`.
fn render_sibling(templates: &Templates, key: &str, name: &str) -> String {
    templates
        .env
        .get_template("page.html")
        .unwrap()
        .render(context! { key => key, name => name })
        .unwrap()
}

#[test]
fn a_sibling_fragment_is_reused_while_its_key_stays_and_forgotten_with_the_build() {
    let dir = dir_with(&[
        ("partials/rail.html", "<b>{{ name }}</b>"),
        (
            "page.html",
            "[{{ sibling_fragment('partials/rail.html', key, name=name) }}]",
        ),
    ]);
    let templates = Templates::load(dir.path()).unwrap();
    assert_eq!(render_sibling(&templates, "uk/1", "A"), "[<b>A</b>]");
    // Same key: the siblings share the markup, whatever else they pass.
    assert_eq!(render_sibling(&templates, "uk/1", "B"), "[<b>A</b>]");
    // Another key renders again, and the thread keeps only that one.
    assert_eq!(render_sibling(&templates, "us/1", "C"), "[<b>C</b>]");
    assert_eq!(render_sibling(&templates, "uk/1", "D"), "[<b>D</b>]");
    // A new build (fragments forgotten) never sees the last build's markup under the same key.
    templates.clear_fragments();
    assert_eq!(render_sibling(&templates, "uk/1", "E"), "[<b>E</b>]");
    // Nor does another template set rendering on the same thread.
    let other = Templates::load(dir.path()).unwrap();
    assert_eq!(render_sibling(&other, "uk/1", "F"), "[<b>F</b>]");
    assert_eq!(render_sibling(&templates, "uk/1", "G"), "[<b>G</b>]");
}

#[test]
fn a_page_comes_in_three_parts_with_its_island_stylesheets_where_the_layout_marks_them() {
    let templates_dir = dir_with(&[
        ("islands/demo.html", "<p>é</p>"),
        (
            "page.html",
            "<head><!--island-styles--></head><body>{{ island('Demo', {}) }}</body>",
        ),
        ("plain.html", "<p>no marker</p>"),
    ]);
    let dist = dir_with(&[(
        ".vite/manifest.json",
        r#"{"src/main.ts": {"file": "assets/main.js", "css": ["assets/main.css"]},
            "src/islands/demo.tsx": {"file": "assets/demo.js", "css": ["assets/demo.css"]}}"#,
    )]);
    let bundles = generator::bundles::Bundles::load(dist.path()).unwrap();
    let templates = Templates::load(templates_dir.path()).unwrap();
    let render = |name: &str| {
        let parts = templates
            .render_page_parts(name, context! {}, &bundles, |parts| {
                parts.map(|p| String::from_utf8(p.to_vec()).unwrap())
            })
            .unwrap();
        let whole = templates.render_page(name, context! {}, &bundles).unwrap();
        assert_eq!(parts.concat(), whole, "the parts are the page, in order");
        parts
    };
    let [head, styles, tail] = render("page.html");
    assert_eq!(head, "<head>");
    assert_eq!(styles, r#"<link rel="stylesheet" href="/assets/demo.css">"#);
    assert!(
        tail.starts_with("</head><body><div data-island=\"Demo\""),
        "{tail}"
    );
    assert!(tail.contains("<p>é</p>"), "{tail}");
    // A page without the marker is written as rendered.
    assert_eq!(render("plain.html"), ["<p>no marker</p>", "", ""]);
}

#[test]
fn a_page_links_the_stylesheets_of_islands_inside_reused_fragments_and_no_others() {
    let templates_dir = dir_with(&[
        ("islands/demo.html", "<p>demo</p>"),
        ("islands/rail.html", "<p>rail</p>"),
        ("partials/header.html", "{{ island('Demo', {}) }}"),
        ("partials/rails.html", "{{ island('Rail', {}) }}"),
        (
            "page.html",
            "<head><!--island-styles--></head>{{ fragment('partials/header.html', 'uk') }}\
             {{ sibling_fragment('partials/rails.html', key) }}",
        ),
        (
            "quoted.html",
            "<head><!--island-styles--></head><p>data-island=\"Demo\"</p>",
        ),
    ]);
    let dist = dir_with(&[(
        ".vite/manifest.json",
        r#"{"src/main.ts": {"file": "assets/main.js", "css": ["assets/main.css"]},
            "src/islands/demo.tsx": {"file": "assets/demo.js", "css": ["assets/demo.css"]},
            "src/islands/rail.tsx": {"file": "assets/rail.js", "css": ["assets/rail.css"]}}"#,
    )]);
    let bundles = generator::bundles::Bundles::load(dist.path()).unwrap();
    let templates = Templates::load(templates_dir.path()).unwrap();
    let styles = |name: &str, key: &str| {
        templates
            .render_page_parts(name, context! { key => key }, &bundles, |parts| {
                String::from_utf8(parts[1].to_vec()).unwrap()
            })
            .unwrap()
    };
    let both = r#"<link rel="stylesheet" href="/assets/demo.css"><link rel="stylesheet" href="/assets/rail.css">"#;
    // Rendered, then reused from the build's cache and the thread's last sibling fragment: the
    // islands inside count on every page that prints the markup.
    assert_eq!(styles("page.html", "uk/1"), both);
    assert_eq!(styles("page.html", "uk/1"), both);
    assert_eq!(styles("page.html", "uk/2"), both);
    // Text that only looks like an island's markup links nothing, and no page inherits the
    // islands of the page rendered before it on the thread.
    assert_eq!(styles("quoted.html", "uk/1"), "");
}
