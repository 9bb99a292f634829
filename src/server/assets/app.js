// Sends the paste with POST (a long log does not fit in a URL) and shows the answer in place.
// Without JavaScript the form submits with GET and the server renders the same answer.
(function () {
  var form = document.getElementById('lookup-form');
  if (!form || !window.fetch) return;
  var text = document.getElementById('error-text');
  var answer = document.getElementById('answer');
  var button = document.getElementById('lookup-submit');
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (!text.value.trim()) return;
    button.disabled = true;
    fetch('/fragments/lookup', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      body: text.value
    }).then(function (r) { return r.text(); }).then(function (html) {
      answer.innerHTML = html;
    }).catch(function (e) {
      answer.textContent = 'The lookup failed: ' + e;
    }).then(function () { button.disabled = false; });
  });
})();
