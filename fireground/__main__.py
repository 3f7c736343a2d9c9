from fireground.cli import main

raise SystemExit(main())
