"""Small GraphML files that the readers must refuse with one clear error, shared by the library's
tests (``tests/wltools/test_graphs.py``) and the CLI's (``tests/cli/test_check.py``)."""

DIRECTED_GRAPHML = """<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <graph id="G" edgedefault="directed">
    <node id="a"/><node id="b"/><edge source="a" target="b"/>
  </graph>
</graphml>
"""

EMPTY_GRAPHML = """<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <graph id="G" edgedefault="undirected"></graph>
</graphml>
"""

MULTI_GRAPHML = """<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <graph id="G" edgedefault="undirected">
    <node id="a"/><node id="b"/><edge source="a" target="b"/><edge source="b" target="a"/>
  </graph>
</graphml>
"""
