//! Template contexts (docs/templates.md): what each page template receives, one function per
//! page kind, and what every page has around it (market, store, page meta, assets, chrome). Data
//! shared by many pages (layout slots, product cards) is converted to template values once per
//! market.

mod product_options;
mod product_parts;

use crate::bundles::Bundles;
use crate::plan::{Page, PageKind};
use crate::render::Templates;
use crate::seo::{self, Alternate};
use crate::shells::SHELLS;
use crate::site::SiteModel;
use crate::view::badge::badge_for;
use crate::view::breadcrumbs::{self, Crumb};
use crate::view::card::card;
use crate::view::facets::facets;
use crate::view::links::localise_links;
use crate::view::media::fallback_media;
use crate::view::price::percent_off;
use crate::view::text::plain_text;
use domain::catalog::Catalog;
use domain::content::{Block, Content, listing_key};
use domain::market::{MARKETS, Market};
use domain::shops::ShopFinder;
use minijinja::{Value, context};
use product_parts::ProductParts;
use search::Card;
use serde::Serialize;
use serde_json::json;
use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

pub const GALLERY_WIDTHS: [u32; 4] = [200, 453, 768, 1517];

/// Everything contexts are built from, prepared once per build.
pub struct Shared<'a> {
    pub catalog: &'a Catalog,
    pub content: &'a Content,
    pub shops: &'a ShopFinder,
    pub site: &'a SiteModel,
    chrome: [Value; 3],
    assets: Value,
    /// Per market, what every page of it shows the same: `market` and `header_props` (built once,
    /// not per page).
    market_values: [(Value, Value); 3],
    store_value: Value,
    templates: &'a Templates,
    /// Product card per product index, per market, rendered on first use: a build that changes
    /// few pages renders few cards.
    cards: Vec<[OnceLock<CachedCard>; 3]>,
    /// Which markets have a content page at a slug.
    content_presence: HashMap<String, [bool; 3]>,
    /// This build's own number: the key of the product parts a worker keeps (`product_parts`).
    serial: u64,
}

#[derive(Serialize)]
struct Og {
    #[serde(rename = "type")]
    kind: &'static str,
    title: String,
    description: String,
    image: Option<String>,
    image_alt: String,
    url: Option<String>,
}

/// Serializes each JSON-LD block as the text of its `<script>` element (`inline_json`).
fn jsonld_for_script<S: serde::Serializer>(
    blocks: &[serde_json::Value],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let texts = blocks
        .iter()
        .map(crate::inline_json::script_json)
        .collect::<Result<Vec<_>, _>>()
        .map_err(serde::ser::Error::custom)?;
    texts.serialize(serializer)
}

#[derive(Serialize)]
struct PageMeta {
    kind: &'static str,
    page_type: &'static str,
    layout: &'static str,
    title: String,
    description: String,
    canonical: Option<String>,
    alternates: Vec<Alternate>,
    og: Og,
    /// Structured data blocks; each reaches the page escaped for its `<script>` element.
    #[serde(serialize_with = "jsonld_for_script")]
    jsonld: Vec<serde_json::Value>,
    noindex: bool,
    is_home: bool,
    breadcrumbs: Vec<Crumb>,
}

/// The template key and value of one page kind's own context.
type Body = (&'static str, Value);

/// What a category or collection page lists.
struct Listing<'a> {
    kind: &'static str,
    id: u64,
    name: &'a str,
    description: &'a str,
    /// Product indices in the listing's default order.
    members: &'a [usize],
    subcategories: Vec<serde_json::Value>,
}

/// A product card and the value pages print for it: the card with its markup (`html`) rendered
/// once, since the same card appears on many listings and product pages, so pages print `html`
/// instead of running the card macro again.
struct CachedCard {
    card: Card,
    value: Value,
}

impl CachedCard {
    fn new(templates: &Templates, card: Card) -> CachedCard {
        #[derive(Serialize)]
        struct WithHtml<'a> {
            #[serde(flatten)]
            card: &'a Card,
            #[serde(skip_serializing_if = "Option::is_none")]
            html: Option<String>,
        }
        let html = templates.render_card(&card).ok();
        let value = to_value(WithHtml { card: &card, html });
        CachedCard { card, value }
    }
}

fn blocks_value(blocks: &[Block], market: &Market) -> Value {
    to_value(crate::blocks::blocks_json(blocks, market))
}

fn custom_field_label(name: &str) -> String {
    match name {
        "fabric_composition" => "Fabric composition".into(),
        "model_wears_displayed" => "Model wears".into(),
        "standard_measurements_displayed" => "Measurements".into(),
        "petite_model_displayed" => "Petite model wears".into(),
        "petite_measurements_displayed" => "Petite measurements".into(),
        "neck_collar_shape" => "Neckline".into(),
        "sleeve_length" => "Sleeve length".into(),
        "product_fit" => "Fit".into(),
        "styling_length" => "Length".into(),
        "washcare" => "Care".into(),
        other => other.replace('_', " "),
    }
}

impl<'a> Shared<'a> {
    pub fn new(
        catalog: &'a Catalog,
        content: &'a Content,
        shops: &'a ShopFinder,
        site: &'a SiteModel,
        bundles: &Bundles,
        templates: &'a Templates,
    ) -> Shared<'a> {
        let chrome = std::array::from_fn(|mi| chrome_value(content, &MARKETS[mi]));
        let market_values = std::array::from_fn(|mi| {
            let market = &MARKETS[mi];
            (
                to_value(
                    json!({"code": market.code, "name": market.name, "prefix": market.path_prefix, "currency": market.currency.code(), "html_lang": market.html_lang}),
                ),
                to_value(json!({"prefix": market.path_prefix})),
            )
        });
        let store = &catalog.store;
        let store_value = to_value(json!({"name": store.name, "base_url": store.base_url}));
        let cards = catalog
            .products
            .iter()
            .map(|_| std::array::from_fn(|_| OnceLock::new()))
            .collect();
        let mut content_presence: HashMap<String, [bool; 3]> = HashMap::new();
        for (mi, mc) in content.markets.iter().enumerate() {
            for p in &mc.pages {
                content_presence.entry(p.slug.clone()).or_default()[mi] = true;
            }
        }
        Shared {
            catalog,
            content,
            shops,
            site,
            chrome,
            market_values,
            store_value,
            assets: to_value(json!({"css": bundles.css, "entry": bundles.entry})),
            templates,
            cards,
            content_presence,
            serial: product_parts::next_build_serial(),
        }
    }

    fn cached_card(&self, product: usize, market: usize) -> &CachedCard {
        self.cards[product][market].get_or_init(|| {
            CachedCard::new(
                self.templates,
                card(
                    self.catalog,
                    &self.catalog.products[product],
                    &MARKETS[market],
                ),
            )
        })
    }

    fn card(&self, product: usize, market: usize) -> Value {
        self.cached_card(product, market).value.clone()
    }

    /// Markets in which the page exists (content pages may be missing in some).
    pub fn presence(&self, page: &Page) -> [bool; 3] {
        match page.kind {
            PageKind::Content(_) => self
                .content_presence
                .get(page.site_path.trim_start_matches('/'))
                .copied()
                .unwrap_or_default(),
            _ => [true; 3],
        }
    }

    /// The context `page`'s template renders: its kind's own values, and what every page has.
    pub fn context(&self, page: &Page) -> Value {
        let mut meta = self.default_meta(page);
        let body = match page.kind {
            PageKind::Home => self.home(&mut meta, &page.market),
            PageKind::Category(ci) => self.category(&mut meta, &page.market, ci),
            PageKind::Collection(ci) => self.collection(&mut meta, page, ci),
            PageKind::Product { product, colourway } => {
                self.product(&mut meta, page, product, colourway)
            }
            PageKind::Content(ci) => self.content_page(&mut meta, page, ci),
            PageKind::Shell(si) => self.shell(&mut meta, si),
            PageKind::ShopFinder => self.shop_finder(&mut meta, page),
            PageKind::NotFound | PageKind::Error => self.error_page(&mut meta, page),
        };
        self.page_context(meta, &page.market, body)
    }

    /// The meta every page starts from (a home page's), with its canonical URL and alternates.
    fn default_meta(&self, page: &Page) -> PageMeta {
        let base = &self.catalog.store.base_url;
        let canonical = page
            .kind
            .indexable()
            .then(|| seo::absolute(base, &page.url_path()));
        let alternates = if page.kind.indexable() {
            seo::alternates(base, &page.site_path, self.presence(page))
        } else {
            Vec::new()
        };
        PageMeta {
            kind: "home",
            page_type: "Home",
            layout: "default",
            title: String::new(),
            description: String::new(),
            canonical: canonical.clone(),
            alternates,
            og: Og {
                kind: "website",
                title: String::new(),
                description: String::new(),
                image: None,
                image_alt: String::new(),
                url: canonical,
            },
            jsonld: Vec::new(),
            noindex: !page.kind.indexable(),
            is_home: page.kind == PageKind::Home,
            breadcrumbs: Vec::new(),
        }
    }

    /// An image URL as social cards need it: site paths made absolute, others as they are.
    fn absolute_image(&self, src: &str) -> String {
        if src.starts_with('/') {
            seo::absolute(&self.catalog.store.base_url, src)
        } else {
            src.to_string()
        }
    }

    /// What every page has around its kind's own values; the social card falls back to the
    /// page's title and description, and a trail below home becomes a `BreadcrumbList`.
    fn page_context(&self, mut meta: PageMeta, market: &Market, body: Body) -> Value {
        let base = &self.catalog.store.base_url;
        if meta.og.title.is_empty() {
            meta.og.title = meta.title.clone();
            meta.og.description = meta.description.clone();
        }
        if meta.breadcrumbs.len() > 1 {
            let crumbs: Vec<(String, String)> = meta
                .breadcrumbs
                .iter()
                .map(|c| (c.name.clone(), c.url.clone()))
                .collect();
            meta.jsonld.push(seo::breadcrumb_list(base, &crumbs));
        }
        let (market_value, header_props) = &self.market_values[market.index()];
        let mut ctx: BTreeMap<&str, Value> = BTreeMap::new();
        ctx.insert("market", market_value.clone());
        ctx.insert("store", self.store_value.clone());
        ctx.insert("page", to_value(&meta));
        ctx.insert("assets", self.assets.clone());
        ctx.insert("header_props", header_props.clone());
        ctx.insert("chrome", self.chrome[market.index()].clone());
        ctx.insert(body.0, body.1);
        Value::from_object(ctx)
    }

    fn home(&self, meta: &mut PageMeta, market: &Market) -> Body {
        let base = &self.catalog.store.base_url;
        let store_name = &self.catalog.store.name;
        let home = self.content.market(market).home.as_ref();
        meta.title = home
            .map(|h| format!("{store_name} | {}", h.title))
            .unwrap_or_else(|| store_name.clone());
        meta.description = home.map(|h| h.description.clone()).unwrap_or_default();
        if let Some(h) = home {
            meta.og.title = h.opengraph.title.clone();
            meta.og.description = h.opengraph.description.clone();
            meta.og.image = h
                .opengraph
                .image_url
                .as_deref()
                .map(|src| self.absolute_image(src));
            meta.og.image_alt = h.opengraph.image_alt.clone();
        }
        meta.jsonld.push(json!({"@context": "https://schema.org", "@type": "WebSite", "name": store_name, "url": seo::absolute(base, &market.path("/"))}));
        (
            "home",
            to_value(json!({
                "title": home.map(|h| h.title.clone()).unwrap_or_default(),
                "description": meta.description,
            }))
            .merge_blocks(home.map(|h| blocks_value(&h.blocks, market))),
        )
    }

    fn category(&self, meta: &mut PageMeta, market: &Market, ci: usize) -> Body {
        let cat = &self.catalog.categories[ci];
        meta.kind = "category";
        meta.page_type = "Category Listing Page";
        meta.breadcrumbs = breadcrumbs::category_trail(self.catalog, market, cat);
        let subcategories: Vec<_> = cat
            .children
            .iter()
            .filter_map(|id| self.catalog.category(*id))
            .filter(|c| c.visible)
            .map(|c| json!({"name": c.name, "url": market.path(&c.path)}))
            .collect();
        self.listing(
            meta,
            market,
            Listing {
                kind: "category",
                id: cat.id,
                name: &cat.name,
                description: &cat.description,
                members: &self.site.category_products[ci],
                subcategories,
            },
        )
    }

    fn collection(&self, meta: &mut PageMeta, page: &Page, ci: usize) -> Body {
        let col = &self.catalog.collections[ci];
        meta.kind = "collection";
        meta.page_type = "Collection";
        meta.breadcrumbs = breadcrumbs::below_home(&page.market, &col.name, page.url_path());
        self.listing(
            meta,
            &page.market,
            Listing {
                kind: "collection",
                id: col.id,
                name: &col.name,
                description: &col.description,
                members: &self.site.collection_products[ci],
                subcategories: Vec::new(),
            },
        )
    }

    /// A category's or collection's page: its first page of cards, facets and paging, which the
    /// listing island takes over.
    fn listing(&self, meta: &mut PageMeta, market: &Market, listing: Listing) -> Body {
        let Listing {
            kind,
            id,
            name,
            description,
            members,
            subcategories,
        } = listing;
        let mi = market.index();
        meta.title = format!("{name} | {}", self.catalog.store.name);
        meta.description = if description.is_empty() {
            format!("Shop {name} at {}.", self.catalog.store.name)
        } else {
            plain_text(description)
        };
        let total = members.len();
        let pages = search::page_count(total);
        let first_page: Vec<Value> = search::first_page(members)
            .iter()
            .map(|&pi| self.card(pi, mi))
            .collect();
        let facets = facets(self.catalog, members);
        // The listing island hydrates the first page from these: the same cards, raw (no `html`).
        let first_cards: Vec<&Card> = search::first_page(members)
            .iter()
            .map(|&pi| &self.cached_card(pi, mi).card)
            .collect();
        let props = json!({"kind": kind, "id": id, "market": market.code, "total": total, "page": 1, "pages": pages, "sort": "featured", "facets": facets, "products": first_cards});
        let header = self
            .content
            .market(market)
            .listing_headers
            .get(&listing_key(kind, id))
            .map(|h| crate::blocks::listing_header_json(h, market));
        let ctx = context! {
            kind => kind,
            id => id,
            title => name,
            description => description,
            description_is_long => description.chars().count() > 35,
            header => to_value(header),
            total => total,
            page => 1,
            pages => pages,
            per_page => search::PER_PAGE,
            sort => "featured",
            products => first_page,
            subcategories => to_value(subcategories),
            facets => to_value(&facets),
            props => to_value(props),
        };
        ("listing", ctx)
    }
    fn product(&self, meta: &mut PageMeta, page: &Page, pi: usize, wi: usize) -> Body {
        let market = &page.market;
        let mi = market.index();
        let catalog = self.catalog;
        let product = &catalog.products[pi];
        let way = &product.colourways[wi];
        let price = way.prices[mi];
        meta.kind = "product";
        meta.page_type = "Product Details Page";
        meta.title = format!("{} in {} | {}", product.name, way.label, catalog.store.name);
        let parts =
            product_parts::parts_for((self.serial, pi, mi), || self.product_parts(pi, market));
        let description = &parts.description;
        meta.description = if description.is_empty() {
            format!("{} in {}.", product.name, way.label)
        } else {
            description.clone()
        };
        let mut crumbs = parts.trail.clone();
        crumbs.push(Crumb {
            name: product.name.clone(),
            url: page.url_path(),
        });
        meta.breadcrumbs = crumbs;

        let media: Vec<(bool, String, String)> = if way.media.is_empty() {
            fallback_media(catalog, product)
                .into_iter()
                .map(|(s, a)| (false, s, a))
                .collect()
        } else {
            way.media
                .iter()
                .map(|m| (m.video, m.src.clone(), m.alt.clone()))
                .collect()
        };
        let gallery: Vec<_> = media
            .iter()
            .map(|(video, src, alt)| {
                let srcset = if *video { String::new() } else { crate::render::srcset(src.clone(), GALLERY_WIDTHS.to_vec()) };
                json!({"src": src, "alt": alt, "video": video, "srcset": srcset, "sizes": "(min-width: 768px) 50vw, 100vw"})
            })
            .collect();
        let canonical = meta.canonical.clone().unwrap_or_default();
        let images: Vec<String> = media
            .iter()
            .filter(|m| !m.0)
            .map(|m| self.absolute_image(&m.1))
            .collect();
        meta.og = Og {
            kind: "product",
            title: format!("{} in {}", product.name, way.label),
            description: meta.description.clone(),
            image: images.first().cloned(),
            image_alt: media[0].2.clone(),
            url: Some(canonical.clone()),
        };
        let mut ld = json!({
            "@context": "https://schema.org", "@type": "Product", "name": product.name, "sku": product.sku,
            "productID": product.style_code, "color": way.label, "image": images, "description": description,
            "brand": {"@type": "Brand", "name": catalog.store.name}, "url": canonical,
        });
        // Offers carry the price but not availability: static pages never claim stock they cannot know.
        if !product.is_price_hidden {
            ld["offers"] = json!({"@type": "Offer", "url": canonical, "priceCurrency": market.currency.code(), "price": price.current().decimal(), "itemCondition": "https://schema.org/NewCondition"});
        }
        meta.jsonld.push(ld);

        // One spelling on every screen: "Colour" (the option's data name stays "Color").
        let colour_label = if product.is_gift_card {
            "Design"
        } else {
            "Colour"
        };
        let options_props =
            product_options::options_props(product, wi, market, colour_label, &parts.variants);
        // A size or length whose variant costs something other than the colourway's price (its
        // lowest): the page carries that price, shown once the shopper chooses it (size or length
        // recompute the price).
        let variant_prices: Vec<serde_json::Value> = way
            .variant_ids
            .iter()
            .filter_map(|vid| product.variants.iter().find(|v| v.id == *vid))
            .filter(|v| v.prices[mi] != price)
            .map(|v| {
                let p = v.prices[mi];
                json!({"id": v.id, "price": p.price.format(), "sale_price": p.sale.map(|s| s.format()), "percent_off": percent_off(&p)})
            })
            .collect();
        let on_sale = price.sale.is_some();
        let ctx = context! {
            id => product.id,
            name => product.name.clone(),
            sku => product.sku.clone(),
            style_code => product.style_code.clone(),
            description_html => Value::from_safe_string(product.description_html.clone()),
            is_gift_card => product.is_gift_card,
            price_hidden => product.is_price_hidden,
            price => price.price.format(),
            sale_price => price.sale.map(|s| s.format()),
            percent_off => percent_off(&price),
            variant_prices => to_value(variant_prices),
            badges => to_value(badge_for(product, on_sale).into_iter().collect::<Vec<_>>()),
            colour => context! { label => way.label.clone(), segment => way.segment.clone() },
            colour_label => colour_label,
            gallery => to_value(gallery),
            options_props => Value::from_object(options_props),
            custom_fields => parts.custom_fields.clone(),
            modifiers => parts.modifiers.clone(),
            recommendations => parts.recommendations.clone(),
            complete_the_look => parts.complete_the_look.clone(),
            size_guide_url => market.path("/size-guide"),
            widget_locale => market.widget_locale,
        };
        ("product", ctx)
    }

    /// What `product`'s pages in `market` share, whatever their colourway.
    fn product_parts(&self, pi: usize, market: &Market) -> ProductParts {
        let catalog = self.catalog;
        let product = &catalog.products[pi];
        let cards = |list: &[usize]| {
            Value::from(
                list.iter()
                    .map(|&r| self.card(r, market.index()))
                    .collect::<Vec<Value>>(),
            )
        };
        ProductParts {
            description: plain_text(&product.description_html),
            trail: match self.site.primary_category[pi] {
                Some(ci) => breadcrumbs::category_trail(catalog, market, &catalog.categories[ci]),
                None => vec![breadcrumbs::home(market)],
            },
            custom_fields: to_value(product.custom_fields.iter().map(|f| json!({"name": f.name, "label": custom_field_label(&f.name), "value": f.value})).collect::<Vec<_>>()),
            modifiers: to_value(product.modifiers.iter().filter(|m| m.kind != "hidden").map(|m| json!({"id": m.id, "display_name": m.display_name, "kind": m.kind, "required": m.required})).collect::<Vec<_>>()),
            variants: product_options::variant_choices(product),
            recommendations: cards(&self.site.recommendations[pi]),
            complete_the_look: cards(&self.site.complete_the_look[pi]),
        }
    }

    fn content_page(&self, meta: &mut PageMeta, page: &Page, ci: usize) -> Body {
        let market = &page.market;
        let cp = &self.content.market(market).pages[ci];
        meta.kind = "content";
        meta.page_type = "Static Content Page";
        meta.title = format!("{} | {}", cp.title, self.catalog.store.name);
        meta.description = cp.description.clone();
        meta.og = Og {
            kind: "article",
            title: cp.opengraph.title.clone(),
            description: cp.opengraph.description.clone(),
            image: cp
                .opengraph
                .image_url
                .as_deref()
                .map(|src| self.absolute_image(src)),
            image_alt: cp.opengraph.image_alt.clone(),
            url: meta.canonical.clone(),
        };
        meta.breadcrumbs = breadcrumbs::below_home(market, &cp.title, page.url_path());
        (
            "content_page",
            to_value(json!({"title": cp.title, "description": cp.description, "stickers": localise_links(&cp.stickers, market)})).merge_blocks(Some(blocks_value(&cp.blocks, market))),
        )
    }

    /// A client-side screen's page (`SHELLS`): its copy, and the island that draws the rest.
    fn shell(&self, meta: &mut PageMeta, si: usize) -> Body {
        let s = &SHELLS[si];
        meta.kind = "shell";
        meta.page_type = s.page_type;
        meta.layout = s.layout;
        meta.title = format!("{} | {}", s.heading, self.catalog.store.name);
        meta.description = s.intro.to_string();
        (
            "shell",
            to_value(json!({"name": s.name, "heading": s.heading, "intro": s.intro})),
        )
    }

    fn shop_finder(&self, meta: &mut PageMeta, page: &Page) -> Body {
        let market = &page.market;
        let store_name = &self.catalog.store.name;
        let count = self.shops.shops.len();
        meta.kind = "shop_finder";
        meta.page_type = "Shop Finder";
        meta.title = format!("Shop finder | {store_name}");
        meta.description = match count {
            0 => format!("Find a {store_name} shop: addresses, opening hours and directions."),
            1 => format!(
                "Our {store_name} shop: its address, opening hours, services such as click & collect, and directions."
            ),
            n => format!(
                "Find your nearest {store_name} shop: addresses, opening hours, services such as click & collect, and directions to our {n} shops."
            ),
        };
        meta.breadcrumbs = breadcrumbs::below_home(market, "Shop finder", page.url_path());
        if count > 0 {
            meta.jsonld.push(crate::shop_finder::jsonld(
                self.shops,
                store_name,
                meta.canonical.as_deref().unwrap_or_default(),
            ));
        }
        (
            "shop_finder",
            to_value(json!({
                "heading": "Shop finder",
                "intro": "Find your nearest shop, its opening hours and how to get there.",
                "props": crate::shop_finder::island_props(self.shops, market),
            })),
        )
    }

    /// The 404 and error pages: a message and links back into the shop.
    fn error_page(&self, meta: &mut PageMeta, page: &Page) -> Body {
        let not_found = page.kind == PageKind::NotFound;
        meta.kind = if not_found { "not_found" } else { "error" };
        meta.page_type = if not_found { "404 Page" } else { "Error Page" };
        let (status, title, message) = if not_found {
            (404, "Page not found", "This page could not be found")
        } else {
            (500, "An error occured", "Please go back or try again")
        };
        meta.title = format!("{title} | {}", self.catalog.store.name);
        let links = [
            ("Home", "/"),
            ("Women", "/browse/womens"),
            ("Men", "/browse/mens"),
            ("Other Stuff", "/other-stuff"),
        ]
        .map(|(label, path)| json!({"label": label, "url": page.market.path(path)}));
        (
            "error_page",
            to_value(json!({"status": status, "title": title, "message": message, "links": links})),
        )
    }
}

/// Layout slots for a market with links prefixed; null where a slot is missing. Logs the
/// market's content warnings: this runs once per market per build.
fn chrome_value(content: &Content, market: &Market) -> Value {
    let mc = content.market(market);
    crate::blocks::log_warnings(mc);
    to_value(crate::blocks::chrome_json(&mc.chrome, market))
}

trait MergeBlocks {
    fn merge_blocks(self, blocks: Option<Value>) -> Value;
}

impl MergeBlocks for Value {
    /// Adds `blocks` to a map value.
    fn merge_blocks(self, blocks: Option<Value>) -> Value {
        let mut map: BTreeMap<String, Value> = BTreeMap::new();
        if let Ok(iter) = self.try_iter() {
            for key in iter {
                let v = self.get_item(&key).unwrap_or_default();
                map.insert(key.to_string(), v);
            }
        }
        map.insert(
            "blocks".into(),
            blocks.unwrap_or_else(|| Value::from(Vec::<Value>::new())),
        );
        Value::from_object(map)
    }
}

/// Converts any serialisable value into a template value.
fn to_value<T: Serialize>(value: T) -> Value {
    Value::from(minijinja::value::Serde(value))
}
