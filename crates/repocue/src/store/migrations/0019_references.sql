-- The names each file of the current snapshot references, for `entity`'s `referenced_by`
-- of a symbol: which files may use a name is looked up here instead of in every file's facts
-- (git/git: inflating 3,400 of them was most of a 55 ms entity cue). One row per file, its
-- row id the path's id; contentless and without positions (`detail = none`): only which rows
-- hold a token. Names keep `_` and `$` inside their tokens, so `ll_merge` is one token;
-- tokens fold case, so a hit is a candidate that the file's facts confirm. The next refresh
-- rebuilds the search index, and this one with it.
CREATE VIRTUAL TABLE reference_fts USING fts5(
    names,
    content = '',
    contentless_delete = 1,
    detail = none,
    tokenize = "unicode61 remove_diacritics 0 tokenchars '_$'"
);
INSERT OR REPLACE INTO settings (name, value) VALUES ('search_rebuild', '19');
