"""The design studio: a local page where a designer shapes the maze on the picture.

``mazeart studio horse.png`` serves one page on 127.0.0.1 (a free port, a random token in
its address) and opens it in the browser. The page shows the picture with the maze over
it, redrawn after every change, with a control for each main option of the command line,
brushes that paint cells out of the maze or into it, rooms drawn as rectangles with doors
clicked onto their walls, tags dropped on cells, and the entrance and exit dragged where
they go. What the designer did is a design (:mod:`mazeart.design`): the page downloads it
as one file, which ``mazeart design.json -o maze.svg`` renders again, and exports every
format the command line writes, byte for byte as the command line writes it.

The server is the standard library's :mod:`http.server` (one user on their own machine,
small JSON requests, one maze made at a time: nothing there calls for a framework, and
the studio then installs with mazeart itself). The page is one file of plain HTML, CSS
and JavaScript in the package, with no build step and nothing fetched from the network.

Safety: the server listens on the loopback address unless told otherwise; every request
carries the token; a request whose ``Host`` or ``Origin`` is not the server's own is
refused (DNS rebinding); an upload is limited in size and read by the same checks as a
picture given on the command line; the page reads only the picture the studio was started
with and those it uploads, and the server writes only the design file it was started
with (when the designer saves it): everything else reaches the user as a download.
"""

from mazeart.studio.server import Studio, serve

__all__ = ["Studio", "serve"]
