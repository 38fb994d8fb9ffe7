//! The template environment: island props stay inside their script, and images get the media
//! host's sizes.

use generator::render::{Templates, sized, srcset};
use minijinja::context;

#[test]
fn island_props_cannot_break_out_of_their_script() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("islands")).unwrap();
    std::fs::write(
        dir.path().join("islands/demo.html"),
        "<p>{{ props.text }}</p>",
    )
    .unwrap();
    std::fs::write(dir.path().join("page.html"), "{{ island('Demo', props) }}").unwrap();
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
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("partials")).unwrap();
    std::fs::write(dir.path().join("partials/rail.html"), "<b>{{ name }}</b>").unwrap();
    std::fs::write(
        dir.path().join("page.html"),
        "[{{ sibling_fragment('partials/rail.html', key, name=name) }}]",
    )
    .unwrap();
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
