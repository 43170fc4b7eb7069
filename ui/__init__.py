"""User interfaces: the command line, and (later) the Kivy touchscreen app."""
