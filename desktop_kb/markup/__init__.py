"""What a note's Markdown means beyond its words: wiki links, tags, headings, literal code.

Qt-free and store-free: pure functions over text, shared by the store sync, the
CLI, search and the editor's highlighting, so all of them agree on what counts
as a link or a tag.
"""
