//! Markdown from editors (accordion bodies, text boxes) rendered to HTML with pulldown-cmark.
//! Tables (GitHub's pipe syntax) are on, for size charts and the like. Raw HTML in the source is
//! shown as text, never interpreted; link targets must be site paths,
//! `https:`, `mailto:`, `tel:` or fragments (others keep their text but lose the link); site paths
//! get the market prefix; a single newline is a line break, as editors expect.

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};

fn safe_href(href: &str) -> bool {
    (href.starts_with('/') && !href.starts_with("//"))
        || href.starts_with("https://")
        || href.starts_with("mailto:")
        || href.starts_with("tel:")
        || href.starts_with('#')
}

/// Renders `source` to HTML. `link` turns a site path into the page's link (market prefix).
pub fn to_html(source: &str, link: &dyn Fn(&str) -> String) -> String {
    // For each open link: whether it was kept, so its end tag is dropped with it.
    let mut open_links: Vec<bool> = Vec::new();
    let events = Parser::new_ext(source, Options::ENABLE_TABLES).filter_map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
        Event::SoftBreak => Some(Event::HardBreak),
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => {
            let keep = safe_href(&dest_url);
            open_links.push(keep);
            keep.then(|| {
                let dest_url = if dest_url.starts_with('/') {
                    CowStr::from(link(&dest_url))
                } else {
                    dest_url
                };
                Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                })
            })
        }
        Event::End(TagEnd::Link) => open_links
            .pop()
            .unwrap_or(false)
            .then_some(Event::End(TagEnd::Link)),
        Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => None,
        other => Some(other),
    });
    let mut out = String::with_capacity(source.len() + 32);
    pulldown_cmark::html::push_html(&mut out, events);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(p: &str) -> String {
        p.to_string()
    }

    #[test]
    fn paragraphs_emphasis_and_links() {
        let html = to_html(
            "Our **e-gift cards** are *fast*. [Shop](/gifts)\n\nNext & last",
            &|p| format!("/us{p}"),
        );
        assert_eq!(
            html,
            "<p>Our <strong>e-gift cards</strong> are <em>fast</em>. <a href=\"/us/gifts\">Shop</a></p>\n<p>Next &amp; last</p>\n"
        );
    }

    #[test]
    fn tables_for_size_charts() {
        let html = to_html(
            "| UK size | Bust (cm) |\n|---|---|\n| 8 | 84 |\n| 10 | 88 |",
            &same,
        );
        assert_eq!(
            html,
            "<table><thead><tr><th>UK size</th><th>Bust (cm)</th></tr></thead><tbody>\n<tr><td>8</td><td>84</td></tr>\n<tr><td>10</td><td>88</td></tr>\n</tbody></table>\n"
        );
        // A line with a pipe but no delimiter row stays a paragraph.
        assert_eq!(to_html("Size 8 | 10", &same), "<p>Size 8 | 10</p>\n");
    }

    #[test]
    fn lists_and_line_breaks() {
        assert_eq!(
            to_html("1. Fill in\n2. Drop off", &same),
            "<ol>\n<li>Fill in</li>\n<li>Drop off</li>\n</ol>\n"
        );
        assert_eq!(
            to_html("- a\n- b", &same),
            "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n"
        );
        assert_eq!(to_html("a\nb", &same), "<p>a<br />\nb</p>\n");
    }

    #[test]
    fn unsafe_links_and_html_stay_text() {
        assert_eq!(
            to_html("[x](javascript:alert(1)) <b>", &same),
            "<p>x &lt;b&gt;</p>\n"
        );
        assert_eq!(
            to_html("<script>alert(1)</script>", &same),
            "&lt;script&gt;alert(1)&lt;/script&gt;"
        );
        assert_eq!(to_html("5'3\" and *", &same), "<p>5'3\" and *</p>\n");
    }
}
