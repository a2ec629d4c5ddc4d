"""Tools for writing rule files: formatter front ends, language server, explain, info, new."""
