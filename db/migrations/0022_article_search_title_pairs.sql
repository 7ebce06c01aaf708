-- A quoted phrase's title matches were found from the title index, which holds words but not their positions: for a
-- phrase of common words (or one word twice, "loka loka") that is every title holding the words, a fifth of the table,
-- each re-read to check positions. The adjacent pairs of the title vector itself (as migration 0012 lists them for the
-- whole vector) find exactly the titles holding a two-word phrase. An expression index: nothing to store or keep in step.
CREATE INDEX "article_search_title_pairs_idx" ON "article_search" USING gin (article_word_pairs("title_vector")) WITH (fastupdate = off);
