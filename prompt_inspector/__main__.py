from prompt_inspector import main

raise SystemExit(main())
