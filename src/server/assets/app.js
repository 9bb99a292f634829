// Enhances the pages, which work without it: the paste goes with POST (a long log does not fit
// in a URL) and the answer appears in place, Ctrl+Enter (Cmd+Enter on a Mac) submits from the
// text box, and the answer is scrolled into view once it is there. Without JavaScript the form
// submits with GET to /#answer and the server renders the same answer.
(function () {
  var form = document.getElementById('lookup-form');
  var answer = document.getElementById('answer');
  var text = document.getElementById('error-text');

  function show(el) {
    el.scrollIntoView({ block: 'start' });
    el.focus({ preventScroll: true });
  }

  document.addEventListener('keydown', function (event) {
    if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey)) return;
    var f = event.target && event.target.form;
    if (!f) return;
    event.preventDefault();
    if (f.requestSubmit) f.requestSubmit();
    else f.submit();
  });

  // an answer rendered by the server (/?q=…, /search?q=…) is shown too
  if (answer && answer.children.length && !location.hash) show(answer);

  if (!form || !answer || !window.fetch) return;
  var button = document.getElementById('lookup-submit');
  var lang = form.elements.lang ? form.elements.lang.value : '';
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (!text.value.trim()) return;
    button.disabled = true;
    fetch('/fragments/lookup' + (lang ? '?lang=' + encodeURIComponent(lang) : ''), {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      body: text.value
    }).then(function (r) { return r.text(); }).then(function (html) {
      answer.innerHTML = html;
      show(answer);
    }).catch(function (e) {
      answer.textContent = 'The lookup failed: ' + e;
    }).then(function () { button.disabled = false; });
  });
})();
