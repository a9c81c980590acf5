// Dice drawn as SVG.
const PIPS = {
  1: [[50, 50]],
  2: [[29, 29], [71, 71]],
  3: [[27, 27], [50, 50], [73, 73]],
  4: [[29, 29], [71, 29], [29, 71], [71, 71]],
  5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
  6: [[29, 25], [71, 25], [29, 50], [71, 50], [29, 75], [71, 75]],
};

export function dieSvg(face, className = "") {
  const pips = (PIPS[face] || [])
    .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="9" class="pip"/>`)
    .join("");
  const blank = face ? "" : '<text x="50" y="64" text-anchor="middle" class="blank">?</text>';
  return (
    `<svg class="die-svg ${className}" viewBox="0 0 100 100" aria-hidden="true" focusable="false">` +
    `<rect x="4" y="4" width="92" height="92" rx="20" class="die-face"/>${pips}${blank}</svg>`
  );
}

export function smallDice(faces) {
  return `<span class="mini-dice">${faces.map((f) => dieSvg(f, "mini")).join("")}</span>`;
}
