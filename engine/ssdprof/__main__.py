from ssdprof.cli.main import main

raise SystemExit(main())
