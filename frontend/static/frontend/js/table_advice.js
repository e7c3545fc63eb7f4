// The card table's advice on the player's turn and the review of a finished game.
import { renderAdvice, renderReview } from "./advice.js";
import { getJson } from "./api.js";

// Lent to the Table (table_core.js).
export const adviceAndReview = {
  // A player's review of the finished game, computed in the background after its end.
  loadReview(delay = 0) {
    const g = this.game;
    if (g.status !== "finished" || g.your_seat === null || this.reviewLoading || this.review) return;
    this.reviewLoading = true;
    window.setTimeout(async () => {
      try {
        const review = await getJson(this.root.dataset.reviewUrl);
        if (review.status === "ready") this.review = review;
        renderReview(this.region.review, review);
        this.reviewLoading = false;
        if (review.status !== "ready") this.loadReview(Math.min(30000, Math.max(3000, delay * 2)));
      } catch {
        this.reviewLoading = false; // no review for this viewer (or offline): the section stays hidden
      }
    }, delay);
  },

  // Fetched once per position, on the player's turn in a game with advice on.
  renderAdvice() {
    const g = this.game;
    if (!g.advice || !g.is_your_turn) {
      this.advice = null;
      renderAdvice(this.region.advice, null);
      return;
    }
    if (this.advice && this.advice.version === g.version) {
      renderAdvice(this.region.advice, this.advice);
      return;
    }
    if (this.adviceAsked === g.version) return;
    this.adviceAsked = g.version;
    getJson(this.root.dataset.adviceUrl).then((advice) => {
      if (advice.version !== this.game.version) return;
      this.advice = advice;
      renderAdvice(this.region.advice, advice);
    }).catch((error) => {
      this.adviceAsked = null; // the next render asks again
      // Held back for load (429, 503): ask again after a pause, while the position stands.
      if (error.status === 429 || error.status === 503) setTimeout(() => this.renderAdvice(), 3000);
    });
  },
};
