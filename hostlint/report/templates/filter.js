// Filters of the hostlint report (see hostlint/report/html_groups.py). Every element with class `f`
// names its severity (x-error), rules (r-LG001), hosts (h-12) and switches (s-3) in its classes; a
// change of a control shows only the elements that match, in one pass that only writes `hidden`.
(function () {
  "use strict";
  var form = document.getElementById("filter-form");
  if (!form) {
    return;
  }
  var items = Array.prototype.slice.call(document.querySelectorAll(".f"));
  var classes = items.map(function (item) {
    return " " + item.className + " ";
  });
  var severities = ["error", "warning", "info"];
  var selects = [["f-rule", "r-"], ["f-host", ""], ["f-switch", ""]];

  function apply() {
    var off = severities.filter(function (severity) {
      var box = document.getElementById("f-sev-" + severity);
      return box && !box.checked;
    });
    var wanted = [];
    selects.forEach(function (pair) {
      var select = document.getElementById(pair[0]);
      if (select && select.value) {
        wanted.push(" " + pair[1] + select.value + " ");
      }
    });
    var shown = 0;
    for (var i = 0; i < items.length; i++) {
      var names = classes[i];
      var show = true;
      // Severity hides finding rows and groups (class fs); a host or switch block stays for its other rows.
      if (off.length && names.indexOf(" fs ") >= 0) {
        for (var s = 0; s < off.length && show; s++) {
          show = names.indexOf(" x-" + off[s] + " ") < 0;
        }
      }
      for (var w = 0; w < wanted.length && show; w++) {
        show = names.indexOf(wanted[w]) >= 0;
      }
      if (items[i].hidden === show) {
        items[i].hidden = !show;
      }
      shown += show ? 1 : 0;
    }
    var count = document.getElementById("f-count");
    if (count) {
      count.textContent = wanted.length || off.length ? shown + " of " + items.length + " shown" : "";
    }
  }

  form.addEventListener("change", apply);
  // "Show all": the defaults set here and applied at once (a native reset would change them after this event).
  form.addEventListener("reset", function (event) {
    event.preventDefault();
    severities.forEach(function (severity) {
      var box = document.getElementById("f-sev-" + severity);
      if (box) {
        box.checked = true;
      }
    });
    selects.forEach(function (pair) {
      var select = document.getElementById(pair[0]);
      if (select) {
        select.selectedIndex = 0;
      }
    });
    apply();
  });
  apply();
})();
