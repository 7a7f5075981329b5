print("snapdiff")
