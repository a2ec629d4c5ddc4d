"""`boardwright serve`: a local web table. looks.py turns a seat's view (the same
`Game.observe` that bots and the terminal use) into the data the page draws; table.py holds a
game in progress (seats, links, moves, undo and redo, saves, bots); server.py answers the
browser (Starlette on uvicorn); static/ is the page itself (plain HTML, CSS and JavaScript)."""
