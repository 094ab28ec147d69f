"""Word, EPUB, HTML and source code: structure kept, hostile input refused with one line."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from doc_fixtures import write_docx, write_epub, zip_bomb

from desktop_kb.importer.docx_text import read_docx
from desktop_kb.importer.epub import read_epub
from desktop_kb.importer.formats import format_of, split_document
from desktop_kb.importer.html_text import split_html
from desktop_kb.importer.model import SplitResult, UnreadableFile


def check(result: SplitResult) -> None:
    prev = 0
    for i, frag in enumerate(result.fragments):
        assert frag.ord == i and frag.text == result.doc_text[frag.start:frag.end]
        assert prev <= frag.start < frag.end
        prev = frag.end


def frag_with(result: SplitResult, needle: str):
    return next(f for f in result.fragments if needle in f.text)


# --- DOCX ----------------------------------------------------------------------------


def test_docx_headings_lists_tables(tmp_path: Path) -> None:
    path = write_docx(tmp_path / "notes.docx", [
        ("h1", "第一章 网络基础"), ("p", "TCP 是面向连接的协议。"),
        ("h2", "三次握手"), ("p", "客户端发送 SYN。"), ("li", "SYN"), ("li", "SYN-ACK"),
        ("h2", "端口"), ("table", "协议|端口;HTTP|80;HTTPS|443"),
        ("h1", "Chapter 2 Routing"), ("p", "Routers forward packets."),
    ])
    result = read_docx(path, "notes")
    check(result)
    assert result.title == "第一章 网络基础"
    assert frag_with(result, "SYN-ACK").heading_path == "第一章 网络基础 > 三次握手"
    assert "- SYN\n\n- SYN-ACK" in result.doc_text
    table = frag_with(result, "HTTPS | 443")
    assert table.heading_path == "第一章 网络基础 > 端口" and "HTTP | 80" in table.text
    assert frag_with(result, "Routers").heading_path == "Chapter 2 Routing"
    assert all(f.page is None for f in result.fragments)


def test_docx_core_title_wins(tmp_path: Path) -> None:
    path = write_docx(tmp_path / "x.docx", [("p", "body text")], title="课程讲义")
    assert read_docx(path, "x").title == "课程讲义"


def test_docx_zip_bomb_and_garbage_are_refused(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFile, match="zip bomb"):
        read_docx(zip_bomb(tmp_path / "bomb.docx", "word/document.xml"), "bomb")
    junk = tmp_path / "junk.docx"
    junk.write_bytes(b"PK\x03\x04 not really a zip" * 10)
    with pytest.raises(UnreadableFile, match="Word"):
        read_docx(junk, "junk")
    other = tmp_path / "other.docx"
    with zipfile.ZipFile(other, "w") as z:
        z.writestr("hello.txt", "hi")
    with pytest.raises(UnreadableFile, match="not a Word document"):
        read_docx(other, "other")


# --- EPUB ----------------------------------------------------------------------------

CHAPTERS = [
    ("序言", "<p>这是一本关于操作系统的书。</p>"),
    ("第一章 进程", "<h1>第一章 进程</h1><p>进程是资源分配的单位。</p><h2>线程</h2><p>线程共享地址空间。</p>"),
    ("Chapter 2 Memory", "<p>Paging maps virtual pages to frames.</p><script>alert(1)</script>"),
]


@pytest.mark.parametrize("epub2", [False, True])
def test_epub_spine_order_and_chapter_titles(tmp_path: Path, epub2: bool) -> None:
    path = write_epub(tmp_path / "os.epub", CHAPTERS, title="操作系统", spine_order=[0, 2, 1],
                      epub2=epub2)
    result = read_epub(path, "os")
    check(result)
    assert result.title == "操作系统"
    text = result.doc_text
    # Spine order (0, 2, 1), not manifest order.
    assert text.index("这是一本") < text.index("Paging") < text.index("进程是")
    # Chapters without their own heading are named by the table of contents.
    assert frag_with(result, "这是一本").heading_path == "序言"
    assert frag_with(result, "Paging").heading_path == "Chapter 2 Memory"
    assert frag_with(result, "线程共享").heading_path == "第一章 进程 > 线程"
    assert "alert" not in text


def test_epub_hostile(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFile, match="zip bomb"):
        read_epub(zip_bomb(tmp_path / "bomb.epub", "OEBPS/text/ch0.xhtml"), "bomb")
    broken = tmp_path / "broken.epub"
    with zipfile.ZipFile(broken, "w") as z:
        z.writestr("META-INF/container.xml", "<container><rootfiles><rootfile full-path='x.opf'/>")
    with pytest.raises(UnreadableFile, match="EPUB"):
        read_epub(broken, "broken")
    empty = tmp_path / "empty.epub"
    with zipfile.ZipFile(empty, "w") as z:
        z.writestr("mimetype", "application/epub+zip")
    with pytest.raises(UnreadableFile, match="not an EPUB"):
        read_epub(empty, "empty")


def test_epub_entity_expansion_is_not_a_bomb(tmp_path: Path) -> None:
    laughs = ('<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">'
              + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(8))
              + ']><container><rootfiles><rootfile full-path="&i;"/></rootfiles></container>')
    path = tmp_path / "laughs.epub"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("META-INF/container.xml", laughs)
    with pytest.raises(UnreadableFile):
        read_epub(path, "laughs")


# --- HTML ----------------------------------------------------------------------------

PAGE = """<!doctype html><html><head><title>Docker 入门 - 博客</title><style>p{color:red}</style>
<script>var tracking = 1;</script></head><body>
<header><nav><a href="/">首页</a> <a href="/about">关于</a></nav></header>
<main><article><h1>Docker 入门</h1><p>容器把应用和依赖打包在一起。</p>
<h2>安装</h2><p>用 <code>apt install docker.io</code> 安装。</p>
<pre>docker run --restart=always \\
  -p 80:80 nginx</pre>
<ul><li>镜像</li><li>容器</li></ul>
<table><tr><th>命令</th><th>作用</th></tr><tr><td>docker ps</td><td>列出容器</td></tr></table>
</article></main>
<aside>广告：买一送一</aside><footer>© 2024 某博客</footer></body></html>"""


def test_html_main_content_only_headings_kept() -> None:
    result = split_html(PAGE, "page")
    check(result)
    text = result.doc_text
    assert result.title == "Docker 入门 - 博客"
    for gone in ("tracking", "color:red", "首页", "广告", "© 2024"):
        assert gone not in text
    assert frag_with(result, "apt install").heading_path == "Docker 入门 > 安装"
    assert "docker run --restart=always \\\n  -p 80:80 nginx" in text  # <pre> keeps its lines
    assert "- 镜像" in text and "docker ps | 列出容器" in text


def test_html_without_main_drops_navigation() -> None:
    page = "<html><body><nav>Home About</nav><h1>T</h1><p>Body text.</p><footer>f</footer></body></html>"
    result = split_html(page, "x")
    assert result.doc_text == "T\n\nBody text."


def test_html_article_header_kept_and_marked_furniture_dropped() -> None:
    # A blog post's title sits in its <article>'s own <header>; a documentation page's
    # navigation bars are divs marked by role or class, "[edit]" links by class.
    page = """<html><body><header class="site-header">Home menuword</header>
<div role="navigation">Contents rolenavword</div><div class="nav-panel">Next: Types</div>
<main><article><header class="entry-header"><h1>Borrowing in Rust</h1></header>
<h2>References<span class="mw-editsection">[edit]</span></h2>
<p>A reference borrows a value without taking ownership.</p>
<div class="sidebar">sidebarword</div><p hidden>hiddenword</p></article></main></body></html>"""
    result = split_html(page, "x")
    check(result)
    for gone in ("menuword", "rolenavword", "Next: Types", "[edit]", "sidebarword", "hiddenword"):
        assert gone not in result.doc_text
    assert frag_with(result, "borrows a value").heading_path == "Borrowing in Rust > References"


@pytest.mark.parametrize("markup", [
    "", "<", "<<<>>>", "<p>unclosed <b>bold <i>both", "</p></div></html>", "<script>never closed",
    "<html><body>" + "<div>" * 5000 + "deep" + "</div>" * 10, "&#xFFFFFFF; &bogus; &amp;",
])
def test_html_broken_markup_never_raises(markup: str) -> None:
    check(split_html(markup, "x"))


def test_huge_html_is_linear(tmp_path: Path) -> None:
    para = "<p>" + "很长的网页内容，" * 40 + "</p>\n"
    result = split_document("<html><body><main>" + para * 20000 + "</main></body></html>", "html", "big")
    check(result)
    assert len(result.fragments) > 1000


# --- source code ---------------------------------------------------------------------


def test_code_formats_are_recognised() -> None:
    for name, fmt in [("Dockerfile", "dockerfile"), ("Dockerfile.dev", "dockerfile"),
                      ("app.dockerfile", "dockerfile"), ("main.go", "go"), ("lib.rs", "rust"),
                      ("a.ts", "typescript"), ("a.jsx", "javascript"), ("x.cpp", "cpp"),
                      ("x.h", "c"), ("Main.java", "java"), ("run.sh", "shell"), ("Makefile", "makefile"),
                      ("CMakeLists.txt", "cmake"), ("q.sql", "sql"), ("page.htm", "html")]:
        assert format_of(Path(name)) == fmt, name
    assert format_of(Path("slides.pptx")) is None


GO = """package main

import "fmt"

// Add adds two numbers.
// It never overflows in tests.
func Add(a, b int) int {
	return a + b
}

type Point struct {
	X, Y int
}

func main() {
	if true {
		fmt.Println(Add(1, 2))
	}
}
"""


def test_go_split_at_top_level_definitions() -> None:
    result = split_document(GO, "go", "main.go")
    check(result)
    assert [f.heading_path for f in result.fragments] == ["", "func Add(a, b int) int", "type Point struct", "func main()"]
    assert result.fragments[1].text.startswith("// Add adds two numbers.")


def test_rust_js_shell_dockerfile_split() -> None:
    rust = "use std::io;\n\npub fn read() -> String {\n    String::new()\n}\n\nimpl Foo {\n    fn x(&self) {}\n}\n"
    assert [f.heading_path for f in split_document(rust, "rust", "a.rs").fragments] == [
        "", "pub fn read() -> String", "impl Foo"]
    js = "import x from 'y';\n\nexport async function load(url) {\n  return fetch(url);\n}\n\nconst add = (a, b) => a + b;\n\nclass A {\n  m() {}\n}\n"
    assert [f.heading_path for f in split_document(js, "javascript", "a.js").fragments] == [
        "", "export async function load(url)", "const add = (a, b) => a + b;", "class A"]
    sh = "#!/bin/sh\nset -e\n\nbackup() {\n  tar czf b.tgz .\n}\n\nfunction restore {\n  tar xzf b.tgz\n}\n\nbackup\n"
    assert [f.heading_path for f in split_document(sh, "shell", "b.sh").fragments] == [
        "", "backup()", "function restore"]
    docker = "FROM golang:1.22 AS build\nRUN go build -o /app .\n\nFROM alpine\nCOPY --from=build /app /app\nCMD [\"/app\"]\n"
    assert [f.heading_path for f in split_document(docker, "dockerfile", "Dockerfile").fragments] == [
        "FROM golang:1.22 AS build", "FROM alpine"]


def test_code_without_definitions_splits_at_blank_lines() -> None:
    css = "body {\n  margin: 0;\n}\n\n" * 3
    result = split_document(css, "css", "s.css")
    check(result)
    assert result.fragments and all(f.heading_path == "" for f in result.fragments)


def test_long_line_does_not_backtrack() -> None:
    line = "int " + "a" * 200_000 + "(" + "x, " * 50_000 + "\n"
    check(split_document(line, "c", "x.c"))
