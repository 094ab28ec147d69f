from desktop_kb.cli import main

raise SystemExit(main())
