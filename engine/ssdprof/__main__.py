from ssdprof.cli import main

raise SystemExit(main())
