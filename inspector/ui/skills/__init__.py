"""The Skills tab: a server's skills (SEP-2640), listed, loaded and verified; shown only when it declares them."""
