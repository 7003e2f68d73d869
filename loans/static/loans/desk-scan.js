/* The loans desk's camera: "Scan with the camera" beside a desk scan box reads a QR code or a
 * barcode (Code 128, EAN-13, Code 39) with the phone's or the laptop's camera, puts what it read
 * in the box and sends the form, as a keyboard-wedge scanner would.
 *
 * Progressive enhancement: the buttons are in the page hidden, and only this script shows them;
 * without it (or without a camera) the typed box works as before. The camera view is the page's
 * <dialog id="camera-scan">; its words, and the addresses of the reader library and its .wasm
 * (served from our own static files, never from a CDN: a desk's internet may be poor), are the
 * dialog's data attributes, so they come translated and hashed from the template.
 *
 * The reader: the browser's own BarcodeDetector where it has one (Chrome on Android, macOS and
 * ChromeOS, for instance), otherwise the barcode-detector ponyfill (zxing-wasm) vendored under vendor/, loaded
 * only when a button is first pressed (the .wasm is about 1 MB). */
(function () {
  "use strict";

  var FORMATS = ["qr_code", "code_128", "ean_13", "code_39"];
  var READ_EVERY_MS = 120;
  /* A label's or a card's QR holds the desk page's address ({site}/desk/copies/<barcode>/ or
   * {site}/desk/households/<card>/); the box wants only its last part. Any site: labels printed
   * with the public address still work at a desk reached by another one. */
  var DESK_ADDRESS = /^[a-z][a-z0-9+.-]*:\/\/[^/]+(?:\/.*)?\/desk\/(?:copies|households)\/([^/?#]+)\/?(?:[?#].*)?$/i;

  /** What goes in the box for a code read: a desk address's barcode or card, other text as is. */
  function codeFromRead(text) {
    var raw = String(text).trim();
    var found = DESK_ADDRESS.exec(raw);
    if (!found) return raw;
    try {
      return decodeURIComponent(found[1]);
    } catch (badEscape) {
      return found[1];
    }
  }

  var view = document.getElementById("camera-scan");
  var buttons = Array.prototype.slice.call(document.querySelectorAll("[data-camera-scan-for]"));
  window.LudologDeskScan = {codeFromRead: codeFromRead};
  if (!view || !buttons.length) return;
  var video = view.querySelector("video");
  var status = view.querySelector("[data-camera-status]");
  var words = view.dataset;

  var stream = null;
  var scanning = false;
  var submitted = false;
  var detectorPromise = null;

  /** Every button says the same thing in words and is no longer pressable. */
  function cannotScan(message) {
    buttons.forEach(function (button) {
      button.textContent = message;
      button.disabled = true;
      button.classList.add("camera-scan-unavailable");
      button.hidden = false;
    });
  }

  /** The reader, made once: native where the browser reads our formats, else zxing-wasm. */
  function detector() {
    if (!detectorPromise) detectorPromise = makeDetector();
    return detectorPromise;
  }

  function makeDetector() {
    var native = window.BarcodeDetector;
    var nativeFormats = native && native.getSupportedFormats ? native.getSupportedFormats() : Promise.resolve([]);
    return nativeFormats.catch(function () { return []; }).then(function (supported) {
      var wanted = FORMATS.filter(function (format) { return supported.indexOf(format) >= 0; });
      if (wanted.indexOf("qr_code") >= 0) {
        view.dataset.reader = "native";
        return new native({formats: wanted});
      }
      return import(words.libraryUrl).then(function (library) {
        // The library fetches its .wasm from jsDelivr unless told where it is: ours.
        return Promise.resolve(library.prepareZXingModule({
          overrides: {
            locateFile: function (path, prefix) {
              return path.endsWith(".wasm") ? words.wasmUrl : prefix + path;
            },
          },
          fireImmediately: true,
        })).then(function () {
          view.dataset.reader = "zxing-wasm";
          return new library.BarcodeDetector({formats: FORMATS});
        });
      });
    });
  }

  function stopCamera() {
    scanning = false;
    if (stream) stream.getTracks().forEach(function (track) { track.stop(); });
    stream = null;
    video.srcObject = null;
    if (view.open) view.close();
  }

  function say(message) {
    status.textContent = message;
  }

  /** Why the camera did not start, in the words a volunteer can act on. */
  function refusalWords(error) {
    var name = error && error.name;
    if (name === "NotAllowedError" || name === "SecurityError") return words.refused;
    if (name === "NotFoundError" || name === "OverconstrainedError" || name === "DevicesNotFoundError") return words.absent;
    return words.failed;
  }

  function scanInto(button) {
    var box = document.getElementById(button.dataset.cameraScanFor);
    if (!box || submitted) return;
    view.showModal();
    say(words.starting);
    scanning = true;
    var reader = detector();
    navigator.mediaDevices.getUserMedia({
      audio: false,
      video: {facingMode: {ideal: "environment"}, width: {ideal: 1280}, height: {ideal: 720}},
    }).then(function (camera) {
      if (!scanning) {  // Stopped while the browser was asking.
        camera.getTracks().forEach(function (track) { track.stop(); });
        return;
      }
      stream = camera;
      video.srcObject = camera;
      return video.play().then(function () {
        return reader;
      }).then(function (reader) {
        say(words.aim);
        readFrames(reader, box);
      }, function (error) {
        stopCamera();
        cannotScan(words.failed);
        console.error("desk camera: the reader did not load", error);
      });
    }, function (error) {
      stopCamera();
      cannotScan(refusalWords(error));
    });
  }

  /** Reads frames until a code is found or the view is stopped; the first code is sent, once. */
  function readFrames(reader, box) {
    if (!scanning) return;
    var next = function () { window.setTimeout(function () { readFrames(reader, box); }, READ_EVERY_MS); };
    if (video.readyState < 2) return next();
    reader.detect(video).then(function (codes) {
      if (!scanning || submitted) return;
      var read = codes.length ? codeFromRead(codes[0].rawValue) : "";
      if (!read) return next();
      submitted = true;
      stopCamera();
      box.value = read;
      buttons.forEach(function (button) { button.disabled = true; });
      var form = box.form;
      if (form.requestSubmit) form.requestSubmit();
      else form.submit();
    }, next);
  }

  view.querySelector("[data-camera-stop]").addEventListener("click", stopCamera);
  view.addEventListener("close", stopCamera);  // Escape closes a dialog too: the camera stops with it.
  window.addEventListener("pagehide", stopCamera);
  window.addEventListener("pageshow", function (event) {
    // Back from the next page (the browser's page cache): the buttons may scan again.
    if (!event.persisted || !submitted) return;
    submitted = false;
    buttons.forEach(function (button) { if (!button.classList.contains("camera-scan-unavailable")) button.disabled = false; });
  });

  /** The buttons shown once, in their final state: what is known before a press (no camera at
   * all, a camera already refused to this site) is asked first, so no button grows under a
   * finger that is about to tap what follows it. ``data-camera-ready`` on <html> says it is done. */
  function ready() {
    document.documentElement.dataset.cameraReady = "1";
  }
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    // Browsers give the camera only to secure pages (https, or localhost).
    cannotScan(window.isSecureContext ? words.absent : words.insecure);
    ready();
    return;
  }
  var hasCamera = navigator.mediaDevices.enumerateDevices
    ? navigator.mediaDevices.enumerateDevices().then(function (devices) {
      return devices.some(function (device) { return device.kind === "videoinput"; });
    }, function () { return true; })
    : Promise.resolve(true);
  var refused = navigator.permissions && navigator.permissions.query
    ? navigator.permissions.query({name: "camera"}).then(function (permission) {
      return permission.state === "denied";
    }, function () { return false; })  // Firefox does not answer for the camera: the press will tell.
    : Promise.resolve(false);
  Promise.all([hasCamera, refused]).then(function (known) {
    if (!known[0]) {
      cannotScan(words.absent);
    } else if (known[1]) {
      cannotScan(words.refused);
    } else {
      buttons.forEach(function (button) {
        button.hidden = false;
        button.addEventListener("click", function () { scanInto(button); });
      });
    }
    ready();
  });
})();
