"""Text shared by the importer and the index: sentences, headings, span cutting, folding.

One sentence rule and one heading model, so an imported document's fragments,
a note's chunks, snippets and packed QA context all agree on where a sentence
or a section ends.  Pure functions over ``str`` with absolute offsets; no Qt,
no store. ``fold`` is the one canonical form for matching (script, NFKC, radicals);
``han`` the one answer to "is this a Chinese character?".
"""
