/* Ludolog line charts: inline SVG drawn from the JSON a page embeds; no library.
 *
 * A <figure class="chart" data-chart-source="ID"> is drawn from <script id="ID" type="application/json">
 * holding {x_label, y_label, series: [{label, colour, points: [[x, y, title?], ...], start?}], x_axis?,
 * x_origin?, x_range?, marker?}. A series' start [x, y, title?] is where its line sets out from (a
 * rating before the first game), drawn as a ring. One kind of x axis per chart:
 * - "number" (the default): whole numbers, an event's or a game's; ticks at round steps.
 * - "date": x counts days from x_origin ("YYYY-MM-DD"); ticks fall on days, months or years and read
 *   as dates in the page's language.
 * x_range [first, last] widens the axis (a league's whole season). A point's title shows on hover.
 * data-chart-series="N" on the figure draws that series alone: one chart per game from one JSON block.
 * A chart is drawn at the width it is shown at, so its text keeps its size on a phone.
 * LudologCharts.setMarker(figure, x) moves the vertical "you are here" line (the replay viewer).
 */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var DAY = 86400000;
  var INK = "#1d1d1b", MUTED = "#5b5b57", GRID = "#e4e0d4";
  var FONT = 12, TICK_GAP = 72;
  var lang = document.documentElement.lang || undefined;

  function el(name, attrs, parent) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (parent) parent.appendChild(node);
    return node;
  }

  function text(parent, x, y, content, attrs) {
    var node = el("text", Object.assign({ x: x, y: y, "font-size": FONT, fill: MUTED }, attrs || {}), parent);
    node.textContent = content;
    return node;
  }

  /* A round step (1, 2 or 5 times a power of ten) giving at most `count` intervals over `span`. */
  function niceStep(span, count, whole) {
    var raw = span / Math.max(1, count), power = Math.pow(10, Math.floor(Math.log10(raw || 1)));
    var step = 10 * power;
    [1, 2, 5, 10].some(function (k) { if (raw <= k * power) { step = k * power; return true; } return false; });
    return whole ? Math.max(1, Math.round(step)) : step;
  }

  function numberLabel(value) {
    return Number(value).toLocaleString(lang, { maximumFractionDigits: 2 });
  }

  /* Whole-number ticks within the data's span; the first value is labelled when no round one is near. */
  function numberTicks(first, last, count) {
    var step = niceStep(last - first, count, true), ticks = [];
    for (var x = Math.ceil(first / step) * step; x <= last; x += step) ticks.push(x);
    if (!ticks.length || ticks[0] - first >= step / 2) ticks.unshift(first);
    return ticks.map(function (x) { return [x, numberLabel(x)]; });
  }

  function dateTicks(origin, first, last, count) {
    var start = new Date(origin + first * DAY), end = new Date(origin + last * DAY), ticks = [];
    var days = last - first, format;
    function dayOf(date) { return Math.round((date.getTime() - origin) / DAY); }
    if (days / 30 >= count) {
      /* Months (or years): the first day of every k-th month. */
      var months = (end.getUTCFullYear() - start.getUTCFullYear()) * 12 + end.getUTCMonth() - start.getUTCMonth();
      var every = [1, 2, 3, 6, 12, 24, 60].find(function (k) { return months / k <= count; }) || 120;
      var crossesYears = start.getUTCFullYear() !== end.getUTCFullYear();
      format = every >= 12 ? { year: "numeric" } : crossesYears ? { month: "short", year: "2-digit" } : { month: "short" };
      var month = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + (start.getUTCDate() > 1 ? 1 : 0), 1));
      while (month <= end) {
        if ((month.getUTCFullYear() * 12 + month.getUTCMonth()) % every === 0) ticks.push(month);
        month = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
      }
    } else {
      var step = [1, 2, 7, 14].find(function (k) { return days / k <= count; }) || 28;
      format = { day: "numeric", month: "short" };
      for (var d = first; d <= last; d += step) ticks.push(new Date(origin + d * DAY));
    }
    var formatter = new Intl.DateTimeFormat(lang, Object.assign({ timeZone: "UTC" }, format));
    return ticks.map(function (date) { return [dayOf(date), formatter.format(date)]; });
  }

  function originOf(data) {
    var parts = String(data.x_origin || "1970-01-01").split("-").map(Number);
    return Date.UTC(parts[0], parts[1] - 1, parts[2]);
  }

  function draw(figure) {
    var source = document.getElementById(figure.dataset.chartSource);
    if (!source) return;
    var data = JSON.parse(source.textContent);
    var canvas = figure.querySelector(".chart-canvas") || figure;
    var series = data.series || [];
    if (figure.dataset.chartSeries !== undefined) series = series.slice(+figure.dataset.chartSeries, +figure.dataset.chartSeries + 1);
    canvas.textContent = "";
    var points = [];
    series.forEach(function (s) { points = points.concat(s.points); });
    if (!points.length) { canvas.textContent = figure.dataset.empty || "—"; return; }
    series.forEach(function (s) { if (s.start) points.push(s.start); });

    var W = Math.max(260, Math.round(canvas.clientWidth || 640)), H = W < 480 ? 240 : 300;
    var xs = points.map(function (p) { return p[0]; }), ys = points.map(function (p) { return p[1]; });
    var first = Math.min.apply(null, xs), last = Math.max.apply(null, xs);
    if (data.x_range) { first = Math.min(first, data.x_range[0]); last = Math.max(last, data.x_range[1]); }
    var y0 = Math.min(0, Math.min.apply(null, ys)), y1 = Math.max(0, Math.max.apply(null, ys));
    if (y1 === y0) y1 = y0 + 1;
    var yStep = niceStep(y1 - y0, H < 300 ? 4 : 5, false);
    y0 = Math.floor(y0 / yStep) * yStep; y1 = Math.ceil(y1 / yStep) * yStep;
    var yTicks = [];
    for (var y = y0; y <= y1 + yStep / 1e6; y += yStep) yTicks.push(Math.round(y / yStep) * yStep);
    var widest = Math.max.apply(null, yTicks.map(function (t) { return numberLabel(t).length; }));
    var M = { left: 26 + widest * 7, right: 14, top: 12, bottom: 46 };
    var count = Math.max(2, Math.floor((W - M.left - M.right) / TICK_GAP));
    var xTicks = data.x_axis === "date" ? dateTicks(originOf(data), first, last, count) : numberTicks(first, last, count);
    /* A lone game still gets a little room on either side. */
    var x0 = first, x1 = last;
    if (x1 === x0) { x0 -= 1; x1 += 1; }
    function px(x) { return M.left + (x - x0) / (x1 - x0) * (W - M.left - M.right); }
    function py(value) { return H - M.bottom - (value - y0) / (y1 - y0) * (H - M.top - M.bottom); }

    var svg = el("svg", { viewBox: "0 0 " + W + " " + H, width: W, height: H, "aria-hidden": "true",
                          focusable: "false" }, canvas);
    yTicks.forEach(function (t) {
      el("line", { x1: M.left, x2: W - M.right, y1: py(t), y2: py(t), stroke: GRID }, svg);
      text(svg, M.left - 6, py(t) + 4, numberLabel(t), { "text-anchor": "end" });
    });
    xTicks.forEach(function (t) {
      var x = px(t[0]);
      el("line", { x1: x, x2: x, y1: H - M.bottom, y2: H - M.bottom + 4, stroke: MUTED }, svg);
      var anchor = x > W - M.right - 30 ? "end" : x < M.left + 30 ? "start" : "middle";
      text(svg, x, H - M.bottom + 17, t[1], { "text-anchor": anchor });
    });
    el("line", { x1: M.left, x2: W - M.right, y1: py(y0), y2: py(y0), stroke: MUTED }, svg);
    el("line", { x1: M.left, x2: M.left, y1: M.top, y2: H - M.bottom, stroke: MUTED }, svg);
    text(svg, (W + M.left) / 2, H - 6, data.x_label || "", { "text-anchor": "middle", fill: INK });
    var middle = M.top + (H - M.top - M.bottom) / 2;
    text(svg, 14, middle, data.y_label || "", { "text-anchor": "middle", fill: INK,
                                                 transform: "rotate(-90 14 " + middle + ")" });
    series.forEach(function (s) {
      var line = s.start ? [s.start].concat(s.points) : s.points;
      var d = line.map(function (p, i) { return (i ? "L" : "M") + px(p[0]).toFixed(1) + " " + py(p[1]).toFixed(1); }).join(" ");
      el("path", { d: d, fill: "none", stroke: s.colour, "stroke-width": 2.2, "stroke-linejoin": "round", class: "series" }, svg);
      if (s.start) {
        var ring = el("circle", { cx: px(s.start[0]), cy: py(s.start[1]), r: 3.2, fill: "#fff", stroke: s.colour,
                                  "stroke-width": 1.6 }, svg);
        if (s.start[2]) el("title", {}, ring).textContent = s.start[2];
      }
      if (s.points.length < 60) {
        s.points.forEach(function (p) {
          var dot = el("circle", { cx: px(p[0]), cy: py(p[1]), r: 3.2, fill: s.colour }, svg);
          if (p[2]) el("title", {}, dot).textContent = p[2];
        });
      }
    });
    var marker = el("line", { class: "marker", y1: M.top, y2: H - M.bottom, stroke: "#ff7a00", "stroke-width": 2,
                              "stroke-dasharray": "4 3", visibility: "hidden" }, svg);
    figure._chart = { px: px, marker: marker, width: W };
    var at = figure._markerAt !== undefined ? figure._markerAt : data.marker;
    if (at !== undefined && at !== null) setMarker(figure, at);

    if (series.length > 1) {
      var legend = document.createElement("ul");
      legend.className = "chart-legend";
      series.forEach(function (s) {
        var item = document.createElement("li"), swatch = document.createElement("span");
        swatch.className = "swatch"; swatch.style.background = s.colour; swatch.setAttribute("aria-hidden", "true");
        item.appendChild(swatch); item.appendChild(document.createTextNode(s.label));
        legend.appendChild(item);
      });
      canvas.appendChild(legend);
    }
  }

  function setMarker(figure, x) {
    var chart = figure && figure._chart;
    if (!chart) return;
    figure._markerAt = x;
    chart.marker.setAttribute("x1", chart.px(x));
    chart.marker.setAttribute("x2", chart.px(x));
    chart.marker.setAttribute("visibility", "visible");
  }

  var figures = Array.prototype.slice.call(document.querySelectorAll("figure.chart[data-chart-source]"));
  figures.forEach(draw);
  /* A phone turned sideways: draw again at the new width (the SVG would otherwise scale its text). */
  var pending = false;
  window.addEventListener("resize", function () {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(function () {
      pending = false;
      figures.forEach(function (figure) {
        var canvas = figure.querySelector(".chart-canvas") || figure;
        if (figure._chart && Math.abs(canvas.clientWidth - figure._chart.width) > 8) draw(figure);
      });
    });
  });

  window.LudologCharts = { draw: draw, setMarker: setMarker };
})();
