<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="en" sourcelanguage="en">
    <context>
        <name>FindBar</name>
        <message numerus="yes">
            <source>Replaced %n match(es)</source>
            <translation>
                <numerusform>Replaced %n match</numerusform>
                <numerusform>Replaced %n matches</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ImportExportController</name>
        <message numerus="yes">
            <source>Exported %n note(s) to {0}.</source>
            <translation>
                <numerusform>Exported %n note to {0}.</numerusform>
                <numerusform>Exported %n notes to {0}.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ImportSummaryDialog</name>
        <message numerus="yes">
            <source>%n document(s) removed because their files are gone.</source>
            <translation>
                <numerusform>%n document removed because its file is gone.</numerusform>
                <numerusform>%n documents removed because their files are gone.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Scanned pages in %n document(s) are being recognised in the background; their text pages are searchable now.</source>
            <translation>
                <numerusform>Scanned pages in %n document are being recognised in the background; their text pages are searchable now.</numerusform>
                <numerusform>Scanned pages in %n documents are being recognised in the background; their text pages are searchable now.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n scanned page(s) wait for text recognition: install OCR in Settings → Text recognition.</source>
            <translation>
                <numerusform>%n scanned page waits for text recognition: install OCR in Settings → Text recognition.</numerusform>
                <numerusform>%n scanned pages wait for text recognition: install OCR in Settings → Text recognition.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n file(s) could not be imported (listed below).</source>
            <translation>
                <numerusform>%n file could not be imported (listed below).</numerusform>
                <numerusform>%n files could not be imported (listed below).</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n link(s) pointed at passages that are gone (listed below).</source>
            <translation>
                <numerusform>%n link pointed at passages that are gone (listed below).</numerusform>
                <numerusform>%n links pointed at passages that are gone (listed below).</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n dismissed suggestion(s) pointed at passages that are gone.</source>
            <translation>
                <numerusform>%n dismissed suggestion pointed at passages that are gone.</numerusform>
                <numerusform>%n dismissed suggestions pointed at passages that are gone.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n hidden item(s) skipped (names starting with a dot).</source>
            <translation>
                <numerusform>%n hidden item skipped (names starting with a dot).</numerusform>
                <numerusform>%n hidden items skipped (names starting with a dot).</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n other item(s) skipped (pictures, media, other formats, linked folders).</source>
            <translation>
                <numerusform>%n other item skipped (pictures, media, other formats, linked folders).</numerusform>
                <numerusform>%n other items skipped (pictures, media, other formats, linked folders).</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Import the %n generated file(s) too</source>
            <translation>
                <numerusform>Import the %n generated file too</numerusform>
                <numerusform>Import the %n generated files too</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n other item(s) skipped (formats not selected, linked folders).</source>
            <translation>
                <numerusform>%n other item skipped (formats not selected, linked folders).</numerusform>
                <numerusform>%n other items skipped (formats not selected, linked folders).</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n passage(s) longer than {0} characters split into parts (nothing is lost)</source>
            <translation>
                <numerusform>%n passage longer than {0} characters split into parts (nothing is lost)</numerusform>
                <numerusform>%n passages longer than {0} characters split into parts (nothing is lost)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n damaged page(s) could not be read (p. {0})</source>
            <translation>
                <numerusform>%n damaged page could not be read (p. {0})</numerusform>
                <numerusform>%n damaged pages could not be read (p. {0})</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n page(s) without a text layer wait for text recognition (OCR)</source>
            <translation>
                <numerusform>%n page without a text layer waits for text recognition (OCR)</numerusform>
                <numerusform>%n pages without a text layer wait for text recognition (OCR)</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>IndexStatusController</name>
        <message numerus="yes">
            <source>%n source(s)</source>
            <translation>
                <numerusform>%n source</numerusform>
                <numerusform>%n sources</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n chunk(s)</source>
            <translation>
                <numerusform>%n chunk</numerusform>
                <numerusform>%n chunks</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>IndexStatusPopup</name>
        <message numerus="yes">
            <source>Indexing: %n item(s) waiting.</source>
            <translation>
                <numerusform>Indexing: %n item waiting.</numerusform>
                <numerusform>Indexing: %n items waiting.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n item(s) could not be indexed. They are retried on the next save or rebuild.</source>
            <translation>
                <numerusform>%n item could not be indexed. It is retried on the next save or rebuild.</numerusform>
                <numerusform>%n items could not be indexed. They are retried on the next save or rebuild.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n source(s)</source>
            <translation>
                <numerusform>%n source</numerusform>
                <numerusform>%n sources</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n chunk(s)</source>
            <translation>
                <numerusform>%n chunk</numerusform>
                <numerusform>%n chunks</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n failure(s) could not even be recorded (the index could not be written).</source>
            <translation>
                <numerusform>%n failure could not even be recorded (the index could not be written).</numerusform>
                <numerusform>%n failures could not even be recorded (the index could not be written).</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Embedding: %n passage(s) still need vectors for meaning search.</source>
            <translation>
                <numerusform>Embedding: %n passage still needs vectors for meaning search.</numerusform>
                <numerusform>Embedding: %n passages still need vectors for meaning search.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>LinkNavigation</name>
        <message numerus="yes">
            <source>%n note(s) link to “{0}”. Update their links to “{1}”?</source>
            <translation>
                <numerusform>%n note links to “{0}”. Update its links to “{1}”?</numerusform>
                <numerusform>%n notes link to “{0}”. Update their links to “{1}”?</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Updated %n link(s).</source>
            <translation>
                <numerusform>Updated %n link.</numerusform>
                <numerusform>Updated %n links.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>MainWindow</name>
        <message numerus="yes">
            <source>Drop to import %n file(s) or folder(s)</source>
            <translation>
                <numerusform>Drop to import %n file or folder</numerusform>
                <numerusform>Drop to import %n files or folders</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>OcrController</name>
        <message numerus="yes">
            <source>Recognised %n scanned page(s); they are searchable now.</source>
            <translation>
                <numerusform>Recognised %n scanned page; it is searchable now.</numerusform>
                <numerusform>Recognised %n scanned pages; they are searchable now.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>OcrPage</name>
        <message numerus="yes">
            <source>%n scanned page(s) are waiting for OCR.</source>
            <translation>
                <numerusform>%n scanned page is waiting for OCR.</numerusform>
                <numerusform>%n scanned pages are waiting for OCR.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>PrivacyPage</name>
        <message numerus="yes">
            <source>%n sent</source>
            <translation>
                <numerusform>%n sent</numerusform>
                <numerusform>%n sent</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n redacted</source>
            <translation>
                <numerusform>%n redacted</numerusform>
                <numerusform>%n redacted</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n blocked</source>
            <translation>
                <numerusform>%n blocked</numerusform>
                <numerusform>%n blocked</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n removed</source>
            <translation>
                <numerusform>%n removed</numerusform>
                <numerusform>%n removed</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>RecoveryController</name>
        <message numerus="yes">
            <source>Restored %n text(s).</source>
            <translation>
                <numerusform>Restored %n text.</numerusform>
                <numerusform>Restored %n texts.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>RecoveryDialog</name>
        <message numerus="yes">
            <source>%n note(s) had text that could not be saved last time. It was kept.</source>
            <translation>
                <numerusform>%n note had text that could not be saved last time. It was kept.</numerusform>
                <numerusform>%n notes had text that could not be saved last time. It was kept.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>SavingDialog</name>
        <message numerus="yes">
            <source>%n note(s) could not be saved yet.</source>
            <translation>
                <numerusform>%n note could not be saved yet.</numerusform>
                <numerusform>%n notes could not be saved yet.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>StatusBadge</name>
        <message numerus="yes">
            <source>%n failed ⚠</source>
            <translation>
                <numerusform>%n failed ⚠</numerusform>
                <numerusform>%n failed ⚠</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Indexing %n</source>
            <translation>
                <numerusform>Indexing %n</numerusform>
                <numerusform>Indexing %n</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Embedding %n</source>
            <translation>
                <numerusform>Embedding %n</numerusform>
                <numerusform>Embedding %n</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>SuggestionCard</name>
        <message numerus="yes">
            <source> and %n more</source>
            <translation>
                <numerusform> and %n more</numerusform>
                <numerusform> and %n more</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>TrashController</name>
        <message numerus="yes">
            <source>%n note(s) deleted for good.</source>
            <translation>
                <numerusform>%n note deleted for good.</numerusform>
                <numerusform>%n notes deleted for good.</numerusform>
            </translation>
        </message>
    </context>
</TS>