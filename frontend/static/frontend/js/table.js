// The card table's entry point: the waiting room watches for the start, a game in play gets its Table.
import { setSprite } from "./cards.js";
import { Table } from "./table_core.js";
import { offerNextGame } from "./table_next.js";
import { watchWaitingRoom } from "./table_stream.js";

function main() {
  const root = document.getElementById("table");
  const data = document.getElementById("game-data");
  if (!root || !data) return;
  setSprite(root.dataset.sprite);
  const game = JSON.parse(data.textContent);
  if (game.status === "open") {
    watchWaitingRoom(root, game);
    return;
  }
  if (game.status === "aborted") return;
  offerNextGame(root, game);
  new Table(root, game).start();
}

main();
