/**
 * The page's browser script, run under the page's nonce. Reads the shell's settings from the JSON
 * block `#sipay-shell` and the token from the address's fragment (`#token=`, sent by no request, so
 * in no server or proxy log), asks for the session's content with the token in a POST body, shows it
 * and runs the card form. The token travels only in POST bodies; the card inputs only ever leave by
 * the form's own submission to the gateway: installments get the 6-digit BIN and the locale, sign
 * gets the installment choice and the locale.
 */
export const HOSTED_PAGE_SCRIPT = String.raw`(function () {
  "use strict";
  var shell = JSON.parse(document.getElementById("sipay-shell").textContent);
  var t = shell.messages;
  var root = document.getElementById("sipay-page");
  var token = new URLSearchParams(window.location.hash.replace(/^#/, "")).get("token") || "";

  function showProblem(message) {
    var main = document.createElement("main");
    main.className = "panel";
    var heading = document.createElement("h1");
    heading.textContent = t.pageTitle;
    var text = document.createElement("p");
    text.className = "error";
    text.setAttribute("role", "alert");
    text.textContent = message;
    main.appendChild(heading);
    main.appendChild(text);
    root.textContent = "";
    root.appendChild(main);
  }

  if (!token) { showProblem(t.linkInvalid); return; }
  fetch(shell.contentUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    credentials: "same-origin",
    cache: "no-store",
    body: JSON.stringify({ token: token, lang: shell.locale }),
  })
    .then(function (response) {
      if (response.status === 404) { throw new Error(t.linkInvalid); }
      if (!response.ok) { throw new Error(t.loadFailed); }
      return response.json();
    })
    .then(function (content) {
      if (!content || typeof content.html !== "string") { throw new Error(t.loadFailed); }
      document.title = content.title;
      root.innerHTML = content.html;
      var language = document.getElementById("switch-language");
      if (language) { language.setAttribute("href", language.getAttribute("href") + window.location.hash); }
      if (content.config) { startCardPage(content.config); }
    })
    .catch(function (error) { showProblem(error && error.message === t.linkInvalid ? t.linkInvalid : t.loadFailed); });

  function startCardPage(config) {
    var form = document.getElementById("card-form");
    var choices = document.getElementById("installment-choices");
    var statusBox = document.getElementById("form-status");
    var payButton = document.getElementById("pay-button");
    var signedBox = document.getElementById("signed-fields");
    var optionsBox = document.getElementById("installment-options");
    var installmentsStatus = document.getElementById("installments-status");
    var agriculturalBox = document.getElementById("agricultural-options");
    var maturitySelect = document.getElementById("maturity_period");
    var frequencySelect = document.getElementById("payment_frequency");
    var CARD_FIELDS = ["cc_holder_name", "cc_no", "expiry_month", "expiry_year", "cvv"];
    var ERROR_KEYS = { cc_holder_name: ["cc_holder_name"], cc_no: ["cc_no"], expiry: ["expiry_month", "expiry_year"], cvv: ["cvv"] };
    var money = new Intl.NumberFormat(config.numberLocale, { style: "currency", currency: config.currencyCode });
    var submitting = false;
    var errorsShown = false;
    var lastBin = "";
    var installmentsRequest = 0;

    function field(name) { return document.getElementById(name); }
    function digits(value) { return String(value || "").replace(/\D+/g, ""); }
    function fill(template, values) {
      return template.replace(/\{(\w+)\}/g, function (whole, key) { return key in values ? String(values[key]) : whole; });
    }
    // a decimal string is formatted exactly where the browser supports it, never shown as NaN
    function formatAmount(decimal) { return /^\d+(\.\d+)?$/.test(String(decimal)) ? money.format(String(decimal)) : String(decimal); }
    function luhn(number) {
      var sum = 0;
      for (var i = number.length - 1, double = false; i >= 0; i--, double = !double) {
        var d = number.charCodeAt(i) - 48;
        if (double) { d *= 2; if (d > 9) { d -= 9; } }
        sum += d;
      }
      return sum % 10 === 0;
    }

    function validate() {
      var errors = {};
      var holder = field("cc_holder_name").value.trim();
      if (!holder) { errors.cc_holder_name = [t.errorHolderRequired, ["cc_holder_name"]]; }
      else if (holder.length > 100) { errors.cc_holder_name = [t.errorHolderTooLong, ["cc_holder_name"]]; }
      var number = digits(field("cc_no").value);
      if (!number) { errors.cc_no = [t.errorNumberRequired, ["cc_no"]]; }
      else if (number.length < 12 || number.length > 19 || !luhn(number) || /[^\d\s]/.test(field("cc_no").value)) {
        errors.cc_no = [t.errorNumberInvalid, ["cc_no"]];
      }
      var monthText = field("expiry_month").value.trim();
      var yearText = field("expiry_year").value.trim();
      var month = /^\d{1,2}$/.test(monthText) ? Number(monthText) : 0;
      var year = /^\d{4}$/.test(yearText) ? Number(yearText) : 0;
      var now = new Date();
      var nowYear = now.getFullYear();
      var nowMonth = now.getMonth() + 1;
      if (month < 1 || month > 12) { errors.expiry = [t.errorMonth, ["expiry_month"]]; }
      else if (!year || year > nowYear + 30) { errors.expiry = [t.errorYear, ["expiry_year"]]; }
      else if (year < nowYear || (year === nowYear && month < nowMonth)) { errors.expiry = [t.errorExpired, ["expiry_month", "expiry_year"]]; }
      if (!/^\d{3,4}$/.test(field("cvv").value.trim())) { errors.cvv = [t.errorCvv, ["cvv"]]; }
      return errors;
    }

    function showErrors(errors, onlyClear) {
      var firstInvalid = null;
      Object.keys(ERROR_KEYS).forEach(function (key) {
        var message = document.getElementById(key + "-error");
        var error = errors[key];
        if (error && onlyClear && message.hidden) { return; }
        message.textContent = error ? error[0] : "";
        message.hidden = !error;
        ERROR_KEYS[key].forEach(function (name) {
          var invalid = Boolean(error) && error[1].indexOf(name) >= 0;
          if (invalid) { field(name).setAttribute("aria-invalid", "true"); } else { field(name).removeAttribute("aria-invalid"); }
          if (invalid && !firstInvalid) { firstInvalid = field(name); }
        });
      });
      return firstInvalid;
    }

    function announce(message) {
      statusBox.textContent = "";
      if (message) { window.setTimeout(function () { statusBox.textContent = message; }, 50); }
    }

    function selectedChoice() {
      var checked = optionsBox.querySelector("input:checked");
      return checked ? checked.value : "1";
    }

    function addChoice(value, text, detail) {
      var wrapper = document.createElement("div");
      wrapper.className = "choice";
      var input = document.createElement("input");
      input.type = "radio";
      input.name = "installment";
      input.id = "installment-" + value;
      input.value = value;
      input.setAttribute("form", choices.id);
      var label = document.createElement("label");
      label.htmlFor = input.id;
      label.textContent = text;
      if (detail) {
        var small = document.createElement("span");
        small.className = "detail";
        small.textContent = detail;
        label.appendChild(small);
      }
      wrapper.appendChild(input);
      wrapper.appendChild(label);
      optionsBox.appendChild(wrapper);
      return input;
    }

    function fillSelect(select, values) {
      select.textContent = "";
      values.forEach(function (value) {
        var option = document.createElement("option");
        option.value = String(value);
        option.textContent = String(value);
        select.appendChild(option);
      });
    }

    function integers(list) {
      return (Array.isArray(list) ? list : []).filter(function (n) { return typeof n === "number" && Math.floor(n) === n && n > 0; });
    }

    function renderChoices(list, agricultural) {
      var previous = selectedChoice();
      var byCount = {};
      var counts = [];
      (Array.isArray(list) ? list : []).forEach(function (option) {
        var n = option ? Number(option.installments_number) : 0;
        if (Math.floor(n) === n && n >= 2 && n <= config.maxInstallments && !byCount[n]) { byCount[n] = option; counts.push(n); }
      });
      counts.sort(function (a, b) { return a - b; });
      optionsBox.textContent = "";
      addChoice("1", t.singlePayment, formatAmount(config.amount));
      counts.forEach(function (n) {
        var option = byCount[n];
        var details = [];
        // The gateway's title ("3 Installments") is English only: the page names the choice in its own
        // language and adds the card program (a brand name, e.g. "Bonus") when the gateway gives one.
        if (typeof option.card_program === "string" && option.card_program) { details.push(option.card_program); }
        if (option.amount_to_be_paid != null && option.amount_to_be_paid !== "") {
          // "3 x 111,80 = 335,40 (+10,00 vade farkı)", in the currency, when the server gives the installment's amount.
          if (option.per_installment != null && option.per_installment !== "") {
            var line = fill(t.installmentBreakdown, { count: n, each: formatAmount(option.per_installment), amount: formatAmount(option.amount_to_be_paid) });
            if (Number(option.fee) > 0) { line += " " + fill(t.installmentFee, { fee: formatAmount(option.fee) }); }
            details.push(line);
          } else {
            details.push(fill(t.installmentTotal, { amount: formatAmount(option.amount_to_be_paid) }));
          }
        }
        addChoice(String(n), fill(t.installmentCount, { count: n }), details.join(" · "));
      });
      var maturities = integers(agricultural && agricultural.maturity_periods);
      var frequencies = integers(agricultural && agricultural.payment_frequencies);
      var hasAgricultural = maturities.length > 0 && frequencies.length > 0;
      if (hasAgricultural) {
        addChoice("agricultural", t.agricultural, "");
        fillSelect(maturitySelect, maturities);
        fillSelect(frequencySelect, frequencies);
      }
      var restore = document.getElementById("installment-" + previous) || document.getElementById("installment-1");
      restore.checked = true;
      updateAgricultural();
      return counts.length + (hasAgricultural ? 1 : 0);
    }

    function updateAgricultural() { agriculturalBox.hidden = selectedChoice() !== "agricultural"; }

    function onCardNumber() {
      var number = digits(field("cc_no").value);
      var bin = number.length >= 6 ? number.slice(0, 6) : "";
      if (bin === lastBin) { return; }
      lastBin = bin;
      var request = ++installmentsRequest;
      if (!bin || config.maxInstallments < 2) {
        renderChoices([], null);
        installmentsStatus.textContent = bin ? t.installmentsNone : t.installmentsHint;
        return;
      }
      installmentsStatus.textContent = t.installmentsLoading;
      fetch(config.installmentsUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        credentials: "same-origin",
        cache: "no-store",
        body: JSON.stringify({ token: token, bin: bin, locale: config.locale }),
      })
        .then(function (response) {
          if (response.status === 503) {
            // The store's configuration (the merchant is told): the server's neutral text, in the page's language.
            return response.json().catch(function () { return null; }).then(function (data) {
              var error = new Error("installments 503");
              error.shopperMessage = data && typeof data.message === "string" ? data.message : "";
              throw error;
            });
          }
          if (!response.ok) { throw new Error("installments " + response.status); }
          return response.json();
        })
        .then(function (body) {
          if (request !== installmentsRequest) { return; }
          var extra = renderChoices(body && body.installments, body && body.agricultural);
          installmentsStatus.textContent = extra > 0 ? fill(t.installmentsLoaded, { count: extra + 1 }) : t.installmentsNone;
        })
        .catch(function (error) {
          if (request !== installmentsRequest) { return; }
          renderChoices([], null);
          installmentsStatus.textContent = error && error.shopperMessage ? error.shopperMessage : t.installmentsFailed;
        });
    }

    function setBusy(busy) {
      payButton.disabled = busy;
      payButton.setAttribute("aria-busy", busy ? "true" : "false");
      payButton.textContent = busy ? t.paying : payButton.getAttribute("data-label");
    }

    function shopperError(message) { var error = new Error(message); error.shopperMessage = message; return error; }

    // The installment fee changed the cart's total: the payment goes on in a new session, and so does this page
    // (its address and token), so that going back comes to a page that still works.
    function movePage(page) {
      if (!page || typeof page.url !== "string" || typeof page.token !== "string") { return; }
      var next = new URL(page.url, window.location.href);
      if (next.origin !== window.location.origin) { return; }
      token = page.token;
      var from = window.location.pathname.replace(/\/+$/, "");
      var to = next.pathname.replace(/\/+$/, "");
      config.signUrl = config.signUrl.replace(from, to);
      config.installmentsUrl = config.installmentsUrl.replace(from, to);
      try { window.history.replaceState(null, "", next.href); } catch (ignored) { /* the page still posts */ }
    }

    function postToGateway(signed) {
      var action = new URL(signed.action, window.location.href);
      if (action.protocol !== "https:" && action.protocol !== "http:") { throw shopperError(t.signFailed); }
      signedBox.textContent = "";
      Object.keys(signed.fields).forEach(function (name) {
        if (CARD_FIELDS.indexOf(name) >= 0) { return; }
        var input = document.createElement("input");
        input.type = "hidden";
        input.name = name;
        input.value = String(signed.fields[name]);
        signedBox.appendChild(input);
      });
      field("cc_holder_name").value = field("cc_holder_name").value.trim();
      // The payer's name comes from the card holder's name as typed here: the store sends no shopper data to this page.
      var holderParts = field("cc_holder_name").value.split(/\s+/);
      var surname = holderParts.length > 1 ? holderParts.pop() : holderParts[0];
      [["name", holderParts.join(" ")], ["surname", surname]].forEach(function (pair) {
        if (signed.fields[pair[0]] !== undefined) { return; }
        var input = document.createElement("input");
        input.type = "hidden";
        input.name = pair[0];
        input.value = String(pair[1]).slice(0, 50);
        signedBox.appendChild(input);
      });
      field("cc_no").value = digits(field("cc_no").value);
      field("expiry_month").value = ("0" + Number(field("expiry_month").value)).slice(-2);
      field("cvv").value = field("cvv").value.trim();
      form.setAttribute("method", "post");
      form.setAttribute("action", action.href);
      HTMLFormElement.prototype.submit.call(form);
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (submitting) { return; }
      var errors = validate();
      var firstInvalid = showErrors(errors, false);
      if (firstInvalid) {
        errorsShown = true;
        announce(t.errorSummary);
        firstInvalid.focus();
        return;
      }
      announce("");
      submitting = true;
      setBusy(true);
      var choice = selectedChoice();
      var body = { token: token, installments_number: choice === "agricultural" ? 1 : Number(choice) || 1, locale: config.locale };
      // The first 6 digits only: an installment fee at the gateway's rate depends on the card.
      var bin = digits(field("cc_no").value).slice(0, 6);
      if (bin.length === 6) { body.bin = bin; }
      if (choice === "agricultural") {
        body.maturity_period = Number(maturitySelect.value);
        body.payment_frequency = Number(frequencySelect.value);
      }
      fetch(config.signUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        credentials: "same-origin",
        cache: "no-store",
        body: JSON.stringify(body),
      })
        .then(function (response) {
          return response.json().catch(function () { return null; }).then(function (data) {
            if (response.ok && data && typeof data.action === "string" && data.fields && typeof data.fields === "object") {
              movePage(data.page);
              postToGateway(data);
              return;
            }
            throw shopperError(data && typeof data.message === "string" && data.message ? data.message : t.signFailed);
          });
        })
        .catch(function (error) {
          submitting = false;
          setBusy(false);
          announce(error && error.shopperMessage ? error.shopperMessage : t.signFailed);
        });
    });

    form.addEventListener("input", function (event) {
      if (event.target === field("cc_no")) { onCardNumber(); }
      if (errorsShown) { showErrors(validate(), true); }
    });
    choices.addEventListener("submit", function (event) { event.preventDefault(); });
    optionsBox.addEventListener("change", updateAgricultural);
    window.addEventListener("pageshow", function (event) { if (event.persisted) { submitting = false; setBusy(false); } });
    payButton.setAttribute("data-label", payButton.textContent);
    payButton.disabled = false;
    onCardNumber();
  }
})();
`
