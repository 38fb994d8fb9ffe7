-- The search index as the rebuild leader last published it (api/src/search/distribution.rs), so
-- every API host can install the same generation without sharing a disk. Files are stored once
-- per content (a rebuild keeps most segment files), base64 in TEXT so one schema fits both stores.
CREATE TABLE search_blob (
    digest TEXT PRIMARY KEY,
    body TEXT NOT NULL
);
CREATE TABLE search_generation_file (
    market TEXT NOT NULL,
    generation TEXT NOT NULL,
    path TEXT NOT NULL,
    digest TEXT NOT NULL REFERENCES search_blob (digest),
    PRIMARY KEY (market, generation, path)
);
-- The live generation of each market.
CREATE TABLE search_live (
    market TEXT PRIMARY KEY,
    generation TEXT NOT NULL,
    published_at BIGINT NOT NULL
);
