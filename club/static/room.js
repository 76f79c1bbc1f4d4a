// The room page, live: the club server sends the table rows (rendered and escaped on the
// server) whenever anything changes; on a lost connection, try again every 2 s.
(function () {
  const rows = document.getElementById("rows");
  const live = document.getElementById("live");
  const lang = new URLSearchParams(location.search).get("lang") || "";
  function connect() {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host
      + "/ws" + (lang ? "?lang=" + encodeURIComponent(lang) : ""));
    ws.onopen = () => { live.textContent = live.dataset.ok; live.classList.remove("lost"); };
    ws.onmessage = (m) => { const d = JSON.parse(m.data); if (d.rows !== undefined) rows.innerHTML = d.rows; };
    ws.onclose = () => { live.textContent = live.dataset.lost; live.classList.add("lost"); setTimeout(connect, 2000); };
  }
  connect();
})();
