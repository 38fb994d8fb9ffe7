-- Queries shoppers ran that found products, per market: the source of Popular Searches.
CREATE TABLE search_query (
    market TEXT NOT NULL,
    query TEXT NOT NULL,
    runs BIGINT NOT NULL,
    last_run_at BIGINT NOT NULL,
    PRIMARY KEY (market, query)
);
CREATE INDEX search_query_popular ON search_query (market, runs);
