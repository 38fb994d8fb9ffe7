//! The embedded search engine: tantivy, one document per colourway. Prefix matching as you type
//! (`new_prefix` term queries), one-letter typo tolerance (Levenshtein distance 1 on words of four
//! letters or more), an exact-name and a sku-prefix boost, and a colour word that ranks its
//! colourway first.

use crate::record::ProductRecord;
use crate::text::{EngineError, Match, TextIndexWriter, TextSearch};
use std::collections::HashSet;
use std::path::Path;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, BoostQuery, FuzzyTermQuery, Occur, Query, TermQuery};
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, STORED, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, RawTokenizer, SimpleTokenizer, TextAnalyzer,
};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, TantivyDocument, Term};

/// Word tokenizer: split on non-alphanumerics, lowercase, fold accents.
const WORDS: &str = "sf_words";
/// Whole-value tokenizer, lowercased: exact names and sku prefixes.
const WHOLE: &str = "sf_whole";
/// Writer heap; tantivy needs at least 15 MB per indexing thread.
const WRITER_HEAP: usize = 64 * 1024 * 1024;

#[derive(Clone, Copy)]
struct Fields {
    product_id: Field,
    colourway: Field,
    name: Field,
    name_exact: Field,
    sku: Field,
    colour: Field,
    category: Field,
}

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let words = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(WORDS)
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    );
    let whole = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(WHOLE)
            .set_index_option(IndexRecordOption::Basic),
    );
    let fields = Fields {
        product_id: b.add_u64_field("product_id", INDEXED | FAST | STORED),
        colourway: b.add_u64_field("colourway", FAST),
        name: b.add_text_field("name", words.clone()),
        name_exact: b.add_text_field("name_exact", whole.clone()),
        sku: b.add_text_field("sku", whole),
        colour: b.add_text_field("colour", words.clone()),
        category: b.add_text_field("category", words),
    };
    (b.build(), fields)
}

fn words_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

fn register_tokenizers(index: &Index) {
    index.tokenizers().register(WORDS, words_analyzer());
    index.tokenizers().register(
        WHOLE,
        TextAnalyzer::builder(RawTokenizer::default())
            .filter(LowerCaser)
            .filter(AsciiFoldingFilter)
            .build(),
    );
}

fn engine_err(path: &Path) -> impl Fn(tantivy::TantivyError) -> EngineError + '_ {
    move |e| EngineError {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// Normalises whole values the way the `WHOLE` tokenizer does: lowercase, folded, single spaces.
fn whole_value(text: &str) -> String {
    words(text).join(" ")
}

fn words(text: &str) -> Vec<String> {
    let mut analyzer = words_analyzer();
    let mut stream = analyzer.token_stream(text);
    let mut out = Vec::new();
    while let Some(token) = stream.next() {
        out.push(token.text.clone());
    }
    out
}

/// A tantivy index in a directory, opened for writing.
pub struct TantivyWriter {
    writer: IndexWriter,
    fields: Fields,
    path: std::path::PathBuf,
}

impl TantivyWriter {
    /// Opens the index in `dir`, creating an empty one when the directory has none.
    pub fn open_or_create(dir: &Path) -> Result<TantivyWriter, EngineError> {
        let (schema, fields) = schema();
        std::fs::create_dir_all(dir).map_err(|e| EngineError {
            path: dir.display().to_string(),
            message: e.to_string(),
        })?;
        let directory = tantivy::directory::MmapDirectory::open(dir).map_err(|e| EngineError {
            path: dir.display().to_string(),
            message: e.to_string(),
        })?;
        let index = Index::open_or_create(directory, schema).map_err(engine_err(dir))?;
        register_tokenizers(&index);
        let writer = index
            .writer_with_num_threads(1, WRITER_HEAP)
            .map_err(engine_err(dir))?;
        Ok(TantivyWriter {
            writer,
            fields,
            path: dir.to_path_buf(),
        })
    }

    fn document(&self, record: &ProductRecord, colourway: usize) -> TantivyDocument {
        let f = self.fields;
        let mut doc = TantivyDocument::default();
        doc.add_u64(f.product_id, record.id);
        doc.add_u64(f.colourway, colourway as u64);
        doc.add_text(f.name, &record.name);
        doc.add_text(f.name_exact, whole_value(&record.name));
        doc.add_text(f.sku, &record.sku);
        doc.add_text(f.colour, &record.colourways[colourway].label);
        for name in &record.category_names {
            doc.add_text(f.category, name);
        }
        doc
    }

    /// Waits for background merges, so the directory holds only the committed segments.
    pub fn finish(self) -> Result<(), EngineError> {
        let path = self.path.clone();
        self.writer
            .wait_merging_threads()
            .map_err(engine_err(&path))
    }
}

impl TextIndexWriter for TantivyWriter {
    fn apply(&mut self, upserts: &[&ProductRecord], removed: &[u64]) -> Result<(), EngineError> {
        let path = self.path.clone();
        for &id in removed
            .iter()
            .chain(upserts.iter().map(|r| &r.id))
            .collect::<HashSet<_>>()
        {
            self.writer
                .delete_term(Term::from_field_u64(self.fields.product_id, id));
        }
        for record in upserts {
            for way in 0..record.colourways.len() {
                self.writer
                    .add_document(self.document(record, way))
                    .map_err(engine_err(&path))?;
            }
        }
        self.writer.commit().map_err(engine_err(&path))?;
        Ok(())
    }
}

/// A tantivy index opened read-only.
pub struct TantivySearch {
    reader: IndexReader,
    fields: Fields,
    path: std::path::PathBuf,
}

impl TantivySearch {
    pub fn open(dir: &Path) -> Result<TantivySearch, EngineError> {
        let index = Index::open_in_dir(dir).map_err(engine_err(dir))?;
        register_tokenizers(&index);
        let (_, fields) = schema();
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(engine_err(dir))?;
        Ok(TantivySearch {
            reader,
            fields,
            path: dir.to_path_buf(),
        })
    }

    fn query(&self, text: &str) -> Option<Box<dyn Query>> {
        let f = self.fields;
        let terms = words(text);
        if terms.is_empty() {
            return None;
        }
        let boosted = |q: Box<dyn Query>, boost: f32| -> (Occur, Box<dyn Query>) {
            (Occur::Should, Box::new(BoostQuery::new(q, boost)))
        };
        let term_query = |field: Field, t: &str| -> Box<dyn Query> {
            Box::new(TermQuery::new(
                Term::from_field_text(field, t),
                IndexRecordOption::WithFreqs,
            ))
        };
        // Every word must match somewhere: exactly, as a prefix, or with one typo.
        let per_word: Vec<(Occur, Box<dyn Query>)> = terms
            .iter()
            .map(|t| {
                let typo = if t.chars().count() >= 4 { 1 } else { 0 };
                let mut alternatives = vec![
                    boosted(term_query(f.name, t), 3.0),
                    boosted(term_query(f.colour, t), 2.5),
                    boosted(term_query(f.category, t), 1.0),
                ];
                for (field, boost) in [(f.name, 1.5), (f.colour, 1.0), (f.category, 0.5)] {
                    alternatives.push(boosted(
                        Box::new(FuzzyTermQuery::new_prefix(
                            Term::from_field_text(field, t),
                            typo,
                            true,
                        )),
                        boost,
                    ));
                }
                let q: Box<dyn Query> = Box::new(BooleanQuery::new(alternatives));
                (Occur::Must, q)
            })
            .collect();
        let whole = terms.join(" ");
        let sku_prefix: String = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_lowercase();
        let top = vec![
            (
                Occur::Should,
                Box::new(BooleanQuery::new(per_word)) as Box<dyn Query>,
            ),
            boosted(term_query(f.name_exact, &whole), 20.0),
            boosted(
                Box::new(FuzzyTermQuery::new_prefix(
                    Term::from_field_text(f.sku, &sku_prefix),
                    0,
                    false,
                )),
                15.0,
            ),
        ];
        Some(Box::new(BooleanQuery::new(top)))
    }
}

impl TextSearch for TantivySearch {
    fn search(&self, text: &str, limit: usize) -> Result<Vec<Match>, EngineError> {
        let Some(query) = self.query(text) else {
            return Ok(Vec::new());
        };
        if limit == 0 {
            return Ok(Vec::new());
        }
        let searcher = self.reader.searcher();
        let err = engine_err(&self.path);
        // Colourways of one product are separate documents; over-fetch so that `limit`
        // distinct products survive the per-product de-duplication in most cases.
        let mut fetch = limit.saturating_mul(4).max(16);
        loop {
            let top = searcher
                .search(query.as_ref(), &TopDocs::with_limit(fetch).order_by_score())
                .map_err(&err)?;
            let exhausted = top.len() < fetch;
            let mut seen = HashSet::new();
            let mut out = Vec::with_capacity(limit);
            for (_, address) in top {
                let segment = searcher.segment_reader(address.segment_ord);
                let ids = segment.fast_fields().u64("product_id").map_err(&err)?;
                let ways = segment.fast_fields().u64("colourway").map_err(&err)?;
                let (Some(id), Some(way)) = (ids.first(address.doc_id), ways.first(address.doc_id))
                else {
                    continue;
                };
                if seen.insert(id) {
                    out.push(Match {
                        product_id: id,
                        colourway: way as usize,
                    });
                    if out.len() == limit {
                        return Ok(out);
                    }
                }
            }
            if exhausted {
                return Ok(out);
            }
            fetch = fetch.saturating_mul(4);
        }
    }
}
