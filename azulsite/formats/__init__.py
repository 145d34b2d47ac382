"""Date and time formats where Django's own do not read as players write them
(``FORMAT_MODULE_PATH``; the choices are in ``locale/GLOSSARY.md``)."""
