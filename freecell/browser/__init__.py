"""The browser layer: the only code that imports js, pyodide or pyscript."""
