// Starts `boardwright lsp` for .game files. The server does the work: diagnostics while you
// type, completion, hover, go to definition and formatting (see editors/README.md).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("boardwright").get("command");
  client = new LanguageClient(
    "boardwright", "Boardwright rules",
    { command, args },
    { documentSelector: [{ scheme: "file", language: "boardwright" }] }
  );
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
