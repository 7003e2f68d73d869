/* Ludolog line charts: inline SVG drawn from the JSON a page embeds; no library.
 *
 * A <figure class="chart" data-chart-source="ID"> is drawn from <script id="ID" type="application/json">
 * holding {x_label, y_label, series: [{label, colour, points: [[x, y], ...]}], x_ticks?, marker?}.
 * LudologCharts.setMarker(figure, x) moves the vertical "you are here" line (the replay viewer).
 */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var W = 640, H = 300, M = { left: 48, right: 16, top: 12, bottom: 42 };

  function el(name, attrs, parent) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (parent) parent.appendChild(node);
    return node;
  }

  function niceStep(span) {
    var raw = span / 5, power = Math.pow(10, Math.floor(Math.log10(raw || 1)));
    var steps = [1, 2, 5, 10];
    for (var i = 0; i < steps.length; i++) if (raw <= steps[i] * power) return steps[i] * power;
    return 10 * power;
  }

  function draw(figure) {
    var source = document.getElementById(figure.dataset.chartSource);
    if (!source) return;
    var data = JSON.parse(source.textContent);
    var canvas = figure.querySelector(".chart-canvas") || figure;
    canvas.textContent = "";
    var points = [];
    data.series.forEach(function (s) { points = points.concat(s.points); });
    if (!points.length) { canvas.textContent = figure.dataset.empty || "—"; return; }
    var xs = points.map(function (p) { return p[0]; }), ys = points.map(function (p) { return p[1]; });
    var x0 = Math.min.apply(null, xs), x1 = Math.max.apply(null, xs);
    (data.x_ticks || []).forEach(function (t) { x0 = Math.min(x0, t[0]); x1 = Math.max(x1, t[0]); });
    var y0 = Math.min(0, Math.min.apply(null, ys)), y1 = Math.max.apply(null, ys);
    if (x1 === x0) x1 = x0 + 1;
    if (y1 === y0) y1 = y0 + 1;
    var step = niceStep(y1 - y0);
    y0 = Math.floor(y0 / step) * step; y1 = Math.ceil(y1 / step) * step;
    function px(x) { return M.left + (x - x0) / (x1 - x0) * (W - M.left - M.right); }
    function py(y) { return H - M.bottom - (y - y0) / (y1 - y0) * (H - M.top - M.bottom); }

    var svg = el("svg", { viewBox: "0 0 " + W + " " + H, "aria-hidden": "true", focusable: "false" }, canvas);
    for (var y = y0; y <= y1 + 1e-9; y += step) {
      el("line", { x1: M.left, x2: W - M.right, y1: py(y), y2: py(y), stroke: "#e4e0d4" }, svg);
      el("text", { x: M.left - 6, y: py(y) + 4, "text-anchor": "end", "font-size": 11, fill: "#5b5b57" }, svg)
        .textContent = String(Math.round(y * 100) / 100);
    }
    var ticks = data.x_ticks || [[x0, String(x0)], [x1, String(x1)]];
    ticks.forEach(function (t) {
      var x = px(t[0]), anchor = x > W - M.right - 40 ? "end" : x < M.left + 40 ? "start" : "middle";
      el("text", { x: x, y: H - M.bottom + 16, "text-anchor": anchor, "font-size": 11, fill: "#5b5b57" }, svg)
        .textContent = t[1];
    });
    el("line", { x1: M.left, x2: W - M.right, y1: py(y0), y2: py(y0), stroke: "#5b5b57" }, svg);
    el("line", { x1: M.left, x2: M.left, y1: M.top, y2: H - M.bottom, stroke: "#5b5b57" }, svg);
    el("text", { x: (W + M.left) / 2, y: H - 6, "text-anchor": "middle", "font-size": 12, fill: "#1d1d1b" }, svg)
      .textContent = data.x_label || "";
    el("text", { x: 12, y: M.top + (H - M.top - M.bottom) / 2, "text-anchor": "middle", "font-size": 12,
                 fill: "#1d1d1b", transform: "rotate(-90 12 " + (M.top + (H - M.top - M.bottom) / 2) + ")" }, svg)
      .textContent = data.y_label || "";
    data.series.forEach(function (s) {
      var d = s.points.map(function (p, i) { return (i ? "L" : "M") + px(p[0]).toFixed(1) + " " + py(p[1]).toFixed(1); }).join(" ");
      el("path", { d: d, fill: "none", stroke: s.colour, "stroke-width": 2.2, "stroke-linejoin": "round", class: "series" }, svg);
      if (s.points.length < 40) {
        s.points.forEach(function (p) { el("circle", { cx: px(p[0]), cy: py(p[1]), r: 2.6, fill: s.colour }, svg); });
      }
    });
    var marker = el("line", { class: "marker", y1: M.top, y2: H - M.bottom, stroke: "#ff7a00", "stroke-width": 2,
                              "stroke-dasharray": "4 3", visibility: "hidden" }, svg);
    figure._chart = { px: px, marker: marker };
    if (data.marker !== undefined && data.marker !== null) setMarker(figure, data.marker);

    var legend = document.createElement("ul");
    legend.className = "chart-legend";
    data.series.forEach(function (s) {
      var item = document.createElement("li"), swatch = document.createElement("span");
      swatch.className = "swatch"; swatch.style.background = s.colour; swatch.setAttribute("aria-hidden", "true");
      item.appendChild(swatch); item.appendChild(document.createTextNode(s.label));
      legend.appendChild(item);
    });
    canvas.appendChild(legend);
  }

  function setMarker(figure, x) {
    var chart = figure && figure._chart;
    if (!chart) return;
    chart.marker.setAttribute("x1", chart.px(x));
    chart.marker.setAttribute("x2", chart.px(x));
    chart.marker.setAttribute("visibility", "visible");
  }

  window.LudologCharts = { draw: draw, setMarker: setMarker };
  document.querySelectorAll("figure.chart[data-chart-source]").forEach(draw);
})();
