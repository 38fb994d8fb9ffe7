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
