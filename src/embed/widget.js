/*
 * Parley web chat, v1. Add it to a page with one tag:
 *   <script src="https://parley.example/embed/v1/widget.js" data-token="cdp_..." async></script>
 * It talks to the public runtime of the deployment the token belongs to, in a
 * Shadow DOM of its own; with data-agent-token="aat_..." instead, to the live
 * version of an AI agent, its replies streamed as they are written. Options
 * (data-*): token or agent-token (one is required), api-base, title, locale,
 * variables (a JSON object), open ("true": open at once), position ("left" or
 * "right"); for agents also greeting and end-user-id. See docs/EMBED.md.
 */
;(function() {
  "use strict"

  var script = document.currentScript ||
    document.querySelector("script[data-token][src*=\"/embed/v1/widget.js\"]") ||
    document.querySelector("script[data-agent-token][src*=\"/embed/v1/widget.js\"]")
  if (!script || script.getAttribute("data-parley-started")) return
  script.setAttribute("data-parley-started", "true")

  var options = script.dataset
  var token = options.token || ""
  // An AI agent's public token: the chat is that agent's (see "the AI agent's public turn" below).
  var agentToken = token ? "" : options.agentToken || ""
  var apiBase =
    (options.apiBase || new URL(script.src, location.href).href.replace(/\/embed\/v1\/widget\.js([?#].*)?$/, ""))
      .replace(/\/+$/, "")
  var title = options.title || "Chat"
  var storeKey = "parley.v1." + (token || agentToken).slice(-12)
  var RETRIES = 6
  // An attempt unanswered this long (its node froze) is sent again; a slow turn is answered by 25 s.
  var ATTEMPT_TIMEOUT_MS = 30000

  var store = {
    get(name) {
      try {
        return sessionStorage.getItem(storeKey + "." + name)
      } catch {
        return null
      }
    },
    set(name, value) {
      try {
        if (value === null) sessionStorage.removeItem(storeKey + "." + name)
        else sessionStorage.setItem(storeKey + "." + name, value)
      } catch {
        // storage refused (private mode): the conversation lasts as long as the page
      }
    }
  }

  var uuid = function() {
    if (crypto.randomUUID) return crypto.randomUUID()
    var bytes = crypto.getRandomValues(new Uint8Array(16))
    bytes[6] = (bytes[6] & 0x0f) | 0x40
    bytes[8] = (bytes[8] & 0x3f) | 0x80
    var hex = Array.prototype.map.call(bytes, function(b) {
      return (b + 256).toString(16).slice(1)
    }).join("")
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" +
      hex.slice(20)
  }
  var sleep = function(ms) {
    return new Promise(function(resolve) {
      setTimeout(resolve, ms)
    })
  }
  /** Resolves once the browser is online again, or after `ms` when it is not known to be offline. */
  var backOnline = function(ms) {
    return navigator.onLine === false
      ? new Promise(function(resolve) {
        window.addEventListener("online", resolve, { once: true })
      })
      : sleep(ms)
  }
  /** The JSON value of a text; null for an empty or malformed one. */
  var jsonOf = function(text) {
    try {
      return text ? JSON.parse(text) : null
    } catch {
      return null
    }
  }

  // ---- the DOM

  var el = function(tag, attributes, children) {
    var node = document.createElement(tag)
    for (var name in attributes || {}) {
      if (name === "text") node.textContent = attributes[name]
      else if (name.slice(0, 2) === "on") node.addEventListener(name.slice(2), attributes[name])
      else if (attributes[name] !== undefined && attributes[name] !== false) node.setAttribute(name, attributes[name])
    }
    ;(children || []).forEach(function(child) {
      if (child) node.appendChild(child)
    })
    return node
  }

  var css =
    ":host{all:initial}*{box-sizing:border-box;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}" +
    ".launcher{position:fixed;bottom:20px;SIDE:20px;z-index:2147483000;width:56px;height:56px;border-radius:50%;" +
    "border:0;background:#1f4fd6;color:#fff;font-size:26px;cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.3)}" +
    ".panel{position:fixed;bottom:88px;SIDE:20px;z-index:2147483000;width:360px;max-width:calc(100vw - 24px);" +
    "height:520px;max-height:calc(100vh - 110px);display:flex;flex-direction:column;background:#fff;color:#1b1b1f;" +
    "border-radius:14px;box-shadow:0 8px 30px rgba(0,0,0,.25);overflow:hidden;font-size:15px;line-height:1.4}" +
    ".panel[hidden]{display:none}header{display:flex;align-items:center;justify-content:space-between;" +
    "padding:12px 14px;background:#1f4fd6;color:#fff}h2{margin:0;font-size:16px;font-weight:600}" +
    ".close{background:none;border:0;color:#fff;font-size:22px;line-height:1;cursor:pointer;padding:4px 8px;border-radius:6px}" +
    ".log{flex:1;overflow-y:auto;padding:12px;display:flex;flex-direction:column;gap:8px;background:#f5f6fa}" +
    ".msg{max-width:85%;padding:8px 12px;border-radius:12px;white-space:pre-wrap;overflow-wrap:anywhere}" +
    ".bot{align-self:flex-start;background:#fff;border:1px solid #dde1ea}" +
    ".user{align-self:flex-end;background:#1f4fd6;color:#fff}" +
    ".note{align-self:center;font-size:13px;color:#4a4f5c;text-align:center}" +
    ".error{align-self:stretch;background:#fdecec;color:#8a1111;border:1px solid #f3b4b4;border-radius:8px;padding:8px 10px;font-size:14px}" +
    ".choices{display:flex;flex-wrap:wrap;gap:6px;align-self:flex-start;max-width:90%}" +
    ".action{align-self:center}.error .action{margin-left:6px}.choice,.action{border:1px solid #1f4fd6;background:#fff;color:#1f4fd6;border-radius:16px;padding:6px 12px;font-size:14px;cursor:pointer}" +
    ".choice:hover,.action:hover{background:#eaf0ff}.msg img{max-width:100%;border-radius:8px;display:block}" +
    ".typing{align-self:flex-start;color:#4a4f5c;font-size:13px;font-style:italic}" +
    "form{display:flex;gap:8px;padding:10px;border-top:1px solid #dde1ea;background:#fff}" +
    "input{flex:1;min-width:0;padding:9px 11px;border:1px solid #9aa2b1;border-radius:8px;font-size:15px;color:#1b1b1f;background:#fff}" +
    ".send{border:0;background:#1f4fd6;color:#fff;border-radius:8px;padding:0 14px;font-size:15px;cursor:pointer}" +
    "button:disabled,input:disabled{opacity:.55;cursor:not-allowed}" +
    ":focus-visible{outline:2px solid #fff;outline-offset:0;box-shadow:0 0 0 4px #1b1b1f}" +
    ".sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}"

  var host = el("div", { "data-parley-chat": "v1" })
  var root = host.attachShadow({ mode: "open" })
  var side = options.position === "left" ? "left" : "right"
  // A constructed style sheet is not an inline style, so a host page's CSP need not allow 'unsafe-inline'.
  if (root.adoptedStyleSheets && window.CSSStyleSheet && CSSStyleSheet.prototype.replaceSync) {
    var sheet = new CSSStyleSheet()
    sheet.replaceSync(css.replace(/SIDE/g, side))
    root.adoptedStyleSheets = [sheet]
  } else {
    root.appendChild(el("style", { text: css.replace(/SIDE/g, side) }))
  }

  var launcher = el("button", {
    class: "launcher",
    type: "button",
    "aria-label": "Open chat: " + title,
    "aria-expanded": "false",
    "aria-controls": "parley-panel"
  })
  var SVG = "http://www.w3.org/2000/svg"
  var icon = document.createElementNS(SVG, "svg")
  var iconPath = document.createElementNS(SVG, "path")
  icon.setAttribute("aria-hidden", "true")
  icon.setAttribute("viewBox", "0 0 24 24")
  icon.setAttribute("width", "28")
  icon.setAttribute("height", "28")
  iconPath.setAttribute("fill", "currentColor")
  iconPath.setAttribute("d", "M4 3h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z")
  icon.appendChild(iconPath)
  launcher.appendChild(icon)
  var heading = el("h2", { id: "parley-title", text: title })
  var closeButton = el("button", { class: "close", type: "button", "aria-label": "Close chat", text: "\u00d7" })
  var log = el("div", {
    class: "log",
    role: "log",
    "aria-live": "polite",
    "aria-relevant": "additions",
    "aria-label": "Conversation",
    tabindex: "0"
  })
  var status = el("div", { class: "sr", role: "status", "aria-live": "polite" })
  var input = el("input", {
    id: "parley-input",
    type: "text",
    autocomplete: "off",
    maxlength: "4000",
    placeholder: "Type your message\u2026"
  })
  var sendButton = el("button", { class: "send", type: "submit", text: "Send" })
  var form = el("form", { "aria-label": "Send a message" }, [
    el("label", { class: "sr", for: "parley-input", text: "Your message" }),
    input,
    sendButton
  ])
  var panel = el("div", {
    class: "panel",
    id: "parley-panel",
    role: "dialog",
    "aria-labelledby": "parley-title",
    hidden: "hidden"
  }, [el("header", {}, [heading, closeButton]), log, status, form])
  root.appendChild(launcher)
  root.appendChild(panel)

  // ---- the conversation

  var sessionId = store.get("session")
  var started = false
  var busy = false
  var ended = false
  var typing = null
  var labels = {}
  var quickReplies = []

  var scroll = function() {
    log.scrollTop = log.scrollHeight
  }
  var add = function(node) {
    log.insertBefore(node, typing)
    scroll()
    return node
  }
  var announce = function(text) {
    status.textContent = text
  }
  var setBusy = function(value) {
    busy = value
    sendButton.disabled = value || ended
    input.disabled = ended
    if (value && !typing) {
      typing = add(el("div", { class: "typing", text: title + " is typing\u2026" }))
    }
    if (!value && typing) {
      typing.remove()
      typing = null
    }
  }
  var dropQuickReplies = function() {
    var hadFocus = quickReplies.some(function(node) {
      return node.contains(root.activeElement)
    })
    quickReplies.forEach(function(node) {
      node.remove()
    })
    quickReplies = []
    if (hadFocus) input.focus()
  }

  var showUser = function(turnInput) {
    var text = turnInput.text !== undefined ? turnInput.text : labels[turnInput.payload] || turnInput.payload
    add(el("div", { class: "msg user" }, [el("span", { class: "sr", text: "You: " }), document.createTextNode(text)]))
  }
  var botText = function(text) {
    return el("div", { class: "msg bot" }, [
      el("span", { class: "sr", text: title + ": " }),
      document.createTextNode(text)
    ])
  }
  var showBot = function(message, live) {
    if (message.type === "text") add(botText(message.text))
    else if (message.type === "image" && /^https:\/\//.test(message.url)) {
      add(el("div", { class: "msg bot" }, [el("img", { src: message.url, alt: message.alt || "" })]))
    } else if (message.type === "buttons") {
      if (message.text) add(botText(message.text))
      var group = el("div", { class: "choices", role: "group", "aria-label": message.text || "Choices" })
      message.buttons.forEach(function(button) {
        labels[button.payload] = button.label
        group.appendChild(el("button", {
          class: "choice",
          type: "button",
          text: button.label,
          onclick() {
            send({ payload: button.payload })
          }
        }))
      })
      if (message.display === "quick-replies") {
        if (!live) return
        quickReplies.push(group)
      }
      add(group)
    } else if (message.type === "handoff") {
      if (message.text) add(botText(message.text))
      add(el("div", { class: "note", text: "You are being connected to a person." }))
    } else if (message.type === "end") {
      if (message.text) add(botText(message.text))
    }
  }

  var showMessages = function(messages) {
    return messages.reduce(function(previous, message) {
      return previous.then(function() {
        if (!message.delayMs) return showBot(message, true)
        setBusy(true)
        return sleep(Math.min(message.delayMs, 5000)).then(function() {
          showBot(message, true)
        })
      })
    }, Promise.resolve()).then(function() {
      setBusy(false)
    })
  }

  var finish = function() {
    ended = true
    store.set("session", null)
    setBusy(false)
    add(el("div", { class: "note", text: "The conversation has ended." }))
    var again = add(
      el("button", { class: "action", type: "button", text: "Start a new conversation", onclick: restart })
    )
    again.focus()
  }
  function restart() {
    log.textContent = ""
    sessionId = null
    ended = false
    store.set("session", null)
    if (agentToken) startAgent()
    else start()
  }

  // ---- the public runtime

  var explain = function(response, body) {
    var tag = body && body._tag
    if (response.status === 401 || tag === "PublicAgentNotFound") return "This chat is no longer available."
    if (response.status === 403) return "This chat is not enabled on this website."
    if (response.status === 429) {
      return "Too many messages right now. Please wait " +
        (response.headers.get("retry-after") || (body && body.retryAfterSeconds) || "a few") + " seconds and try again."
    }
    if (tag === "RuntimeSessionNotFound") return "This conversation has expired."
    if (response.status === 400) {
      return "That message could not be sent" + (body && body.message ? ": " + body.message : ".")
    }
    return "Something went wrong (" + response.status + "). Please try again."
  }

  /** One request, retried with the same body and headers while the network or the server is unavailable. */
  var request = function(method, path, body, key) {
    var headers = { authorization: "Bearer " + token }
    if (body !== undefined) headers["content-type"] = "application/json"
    if (key) headers["idempotency-key"] = key
    var attempt = function(n) {
      var controller = new AbortController()
      var timer = setTimeout(function() {
        controller.abort()
      }, ATTEMPT_TIMEOUT_MS)
      return fetch(apiBase + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        mode: "cors",
        credentials: "omit",
        cache: "no-store",
        signal: controller.signal
      }).finally(function() {
        clearTimeout(timer)
      }).then(function(response) {
        return response.text().then(function(text) {
          var json = jsonOf(text)
          var transient = response.status >= 500 ||
            (response.status === 429 && n < 2 && Number(response.headers.get("retry-after")) <= 5)
          if (transient && n < RETRIES) {
            var wait = Number(response.headers.get("retry-after")) * 1000 || 400 * Math.pow(2, n)
            return retry(n, Math.min(wait, 8000))
          }
          if (n > 0) announce("")
          return { response, body: json }
        })
      }, function(error) {
        if (n >= RETRIES) {
          announce("")
          throw error
        }
        return retry(n, 400 * Math.pow(2, n))
      })
    }
    var retry = function(n, wait) {
      announce("Reconnecting\u2026")
      return backOnline(wait).then(function() {
        return attempt(n + 1)
      })
    }
    return attempt(0)
  }

  var failed = function(text, onRetry) {
    var box = add(el("div", { class: "error", role: "alert" }, [document.createTextNode(text + " ")]))
    if (onRetry) {
      box.appendChild(el("button", {
        class: "action",
        type: "button",
        text: "Retry",
        onclick() {
          box.remove()
          onRetry()
        }
      }))
    }
  }

  /** Whether the chat cannot work here at all: a revoked or unknown token (401), an origin it is not for (403). */
  var isRefusal = function(result) {
    return result.response.status === 401 || result.response.status === 403
  }

  /** Says why, with no Retry that could never succeed, disables the input, and tells the developer in one line. */
  var refused = function(result) {
    ended = true
    setBusy(false)
    failed(explain(result.response, result.body), null)
    console.warn(
      "Parley chat: " +
        (result.response.status === 401 || result.response.status === 404
          ? (agentToken ? "the agent token" : "the embed token") + " was refused (rotated, unpublished or unknown)"
          : "this page's origin (" + location.origin + ") is not among the " +
            (agentToken ? "agent's" : "deployment's") +
            " allowed origins") +
        "; " + result.response.status + (result.body && result.body.message ? " " + result.body.message : "")
    )
  }

  var answered = function(reply) {
    sessionId = reply.sessionId
    store.set("session", reply.sessionId)
    return showMessages(reply.messages).then(function() {
      if (reply.ended) finish()
    })
  }

  function start() {
    started = true
    setBusy(true)
    var body = {}
    if (options.locale) body.locale = options.locale
    if (options.variables) {
      try {
        body.variables = JSON.parse(options.variables)
      } catch {
        console.warn("Parley chat: data-variables is not JSON; ignored")
      }
    }
    return request("POST", "/v1/public/runtime/sessions", body).then(function(result) {
      setBusy(false)
      if (isRefusal(result)) return refused(result)
      if (result.response.status !== 201) return failed(explain(result.response, result.body), start)
      return answered(result.body)
    }, function() {
      setBusy(false)
      failed("Cannot reach the chat. Check your connection.", start)
    })
  }

  var reconnect = function() {
    started = true
    setBusy(true)
    return request("GET", "/v1/public/runtime/sessions/" + encodeURIComponent(sessionId)).then(function(result) {
      setBusy(false)
      if (result.response.status === 404) {
        store.set("session", null)
        sessionId = null
        return start()
      }
      if (isRefusal(result)) return refused(result)
      if (result.response.status !== 200) return failed(explain(result.response, result.body), reconnect)
      var transcript = result.body.transcript
      var lastBot = -1
      transcript.forEach(function(entry, index) {
        if (entry.role === "bot") lastBot = index
      })
      transcript.forEach(function(entry, index) {
        if (entry.role === "user") return showUser(entry.input)
        entry.messages.forEach(function(message) {
          showBot(message, index === lastBot && !result.body.ended)
        })
      })
      if (result.body.ended) finish()
    }, function() {
      setBusy(false)
      failed("Cannot reach the chat. Check your connection.", reconnect)
    })
  }

  /** Sends one turn; a retry, automatic or the user's, sends the same key, so the turn happens once. */
  function send(turnInput, key) {
    if (busy || ended || !sessionId) return
    key = key || uuid()
    if (arguments.length < 2) {
      dropQuickReplies()
      showUser(turnInput)
    }
    setBusy(true)
    request("POST", "/v1/public/runtime/sessions/" + encodeURIComponent(sessionId) + "/turns", turnInput, key).then(
      function(result) {
        setBusy(false)
        var tag = result.body && result.body._tag
        if (result.response.status === 200) return answered(result.body)
        if (tag === "RuntimeSessionEnded") return finish()
        if (isRefusal(result)) return refused(result)
        if (tag === "RuntimeSessionNotFound") {
          store.set("session", null)
          sessionId = null
          return failed(explain(result.response, result.body), restart)
        }
        var again = result.response.status === 429 || result.response.status >= 500
        failed(
          explain(result.response, result.body),
          again ?
            function() {
              send(turnInput, key)
            } :
            null
        )
      },
      function() {
        setBusy(false)
        failed("Your message was not sent: the connection is lost.", function() {
          send(turnInput, key)
        })
      }
    )
  }

  // ---- the AI agent's public turn (data-agent-token)

  /**
   * The events of a text/event-stream body as they arrive: `onEvent(type, data,
   * id)` for each, `onChunk()` for anything read (heartbeats included). Resolves
   * when the body ends.
   */
  var readEvents = function(response, onEvent, onChunk) {
    var reader = response.body.getReader()
    var decoder = new TextDecoder()
    var buffer = ""
    var pump = function() {
      return reader.read().then(function(chunk) {
        if (chunk.done) return
        onChunk()
        buffer += decoder.decode(chunk.value, { stream: true })
        var end
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          var frame = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          var type = "message"
          var id = null
          var data = []
          frame.split("\n").forEach(function(line) {
            if (line.slice(0, 6) === "event:") type = line.slice(6).trim()
            else if (line.slice(0, 3) === "id:") id = line.slice(3).trim()
            else if (line.slice(0, 5) === "data:") data.push(line.slice(5).replace(/^ /, ""))
          })
          if (data.length === 0) continue
          var event = jsonOf(data.join("\n"))
          if (event) onEvent(type, event, id)
        }
        return pump()
      })
    }
    return pump()
  }

  /**
   * One attempt at a streamed agent turn: `onDelta(text, id)` for each piece of
   * the reply; `lastEventId`, the id of the last piece an earlier attempt
   * showed, makes the stream leave out what it showed. Resolves with the
   * response and, for a stream, its `message.done` result or `error` event
   * (neither: the stream broke). An attempt that reads nothing for
   * ATTEMPT_TIMEOUT_MS (the server sends a heartbeat every 15 s) is abandoned.
   */
  var agentAttempt = function(text, key, lastEventId, onDelta) {
    var body = { message: text }
    if (sessionId) body.conversationId = sessionId
    if (options.endUserId) body.endUserId = options.endUserId
    var controller = new AbortController()
    var timer = null
    var idle = function() {
      clearTimeout(timer)
      timer = setTimeout(function() {
        controller.abort()
      }, ATTEMPT_TIMEOUT_MS)
    }
    idle()
    return fetch(apiBase + "/v1/public/ai-agents/" + encodeURIComponent(agentToken) + "/turn?stream=true", {
      method: "POST",
      headers: Object.assign(
        { "content-type": "application/json", "idempotency-key": key, accept: "text/event-stream" },
        lastEventId ? { "last-event-id": lastEventId } : {}
      ),
      body: JSON.stringify(body),
      mode: "cors",
      credentials: "omit",
      cache: "no-store",
      signal: controller.signal
    }).then(function(response) {
      var streamed = response.status === 200 && /text\/event-stream/.test(response.headers.get("content-type") || "")
      if (!streamed) {
        return response.text().then(function(raw) {
          return { response, body: jsonOf(raw) }
        })
      }
      var result = { response, body: null, done: null, failure: null }
      return readEvents(response, function(type, event, id) {
        if (type === "message.delta" && typeof event.delta === "string") onDelta(event.delta, id)
        else if (type === "message.done") result.done = event.result
        else if (type === "error") result.failure = event
      }, idle).then(function() {
        return result
      })
    }).finally(function() {
      clearTimeout(timer)
    })
  }

  /**
   * Sends one message to the agent and shows its reply as it is written. A
   * broken connection or a 5xx is retried with the same key: the server runs the
   * turn once, and the repeat sends the id of the last piece shown as
   * Last-Event-ID, so the stream goes on from there (without an id, it streams
   * the turn again and the reply shown so far is replaced).
   */
  function sendAgent(text, key) {
    if (busy || ended) return
    var repeat = key !== undefined
    key = key || uuid()
    if (!repeat) showUser({ text })
    setBusy(true)
    var bubble = null
    var reply = ""
    var lastId = null
    var show = function() {
      if (!bubble) bubble = add(botText(""))
      bubble.lastChild.textContent = reply
      scroll()
    }
    var retryLater = function() {
      failed("Your message was not sent: the connection is lost.", function() {
        sendAgent(text, key)
      })
    }
    var attempt = function(n) {
      if (!lastId) {
        reply = ""
        if (bubble) show()
      }
      return agentAttempt(text, key, lastId, function(delta, id) {
        reply += delta
        if (id) lastId = id
        show()
      }).then(function(result) {
        var status = result.response.status
        if (result.done) {
          announce("")
          setBusy(false)
          sessionId = result.done.conversationId
          store.set("session", sessionId)
          var content = result.done.message && result.done.message.content
          if (content && content !== reply) {
            reply = content
            show()
          }
          if (result.done.handoff) add(el("div", { class: "note", text: "You are being connected to a person." }))
          return
        }
        if (result.failure) {
          announce("")
          setBusy(false)
          return failed(
            result.failure.code === "UpstreamFailed"
              ? "The assistant cannot answer right now. Please try again."
              : "Something went wrong. Please try again.",
            function() {
              sendAgent(text, key)
            }
          )
        }
        var broken = status === 200 || status >= 500
        if (broken && n < RETRIES) return again(n)
        announce("")
        setBusy(false)
        if (broken) return retryLater()
        var tag = result.body && result.body._tag
        if (tag === "AiAgentConversationNotFound") {
          store.set("session", null)
          sessionId = null
          return failed("This conversation has expired.", restart)
        }
        if (status === 404 || status === 403) return refused(result)
        return failed(
          explain(result.response, result.body),
          status === 429 ?
            function() {
              sendAgent(text, key)
            } :
            null
        )
      }, function() {
        if (n < RETRIES) return again(n)
        announce("")
        setBusy(false)
        retryLater()
      })
    }
    var again = function(n) {
      announce("Reconnecting\u2026")
      return backOnline(Math.min(400 * Math.pow(2, n), 8000)).then(function() {
        return attempt(n + 1)
      })
    }
    attempt(0)
  }

  /** An agent's chat needs no session to start: its greeting (from the snippet), or a note when one goes on. */
  var startAgent = function() {
    started = true
    setBusy(false)
    if (sessionId) add(el("div", { class: "note", text: "Continuing your conversation." }))
    else if (options.greeting) add(botText(options.greeting))
  }

  // ---- opening, closing, keys

  var open = function(focus) {
    panel.hidden = false
    launcher.setAttribute("aria-expanded", "true")
    launcher.setAttribute("aria-label", "Close chat: " + title)
    store.set("open", "1")
    if (!started) {
      if (!token && !agentToken) failed("This chat has no token (data-token or data-agent-token).")
      else if (agentToken) startAgent()
      else if (sessionId) reconnect()
      else start()
    }
    if (focus) input.focus()
  }
  var close = function() {
    panel.hidden = true
    launcher.setAttribute("aria-expanded", "false")
    launcher.setAttribute("aria-label", "Open chat: " + title)
    store.set("open", null)
    launcher.focus()
  }

  launcher.addEventListener("click", function() {
    if (panel.hidden) open(true)
    else close()
  })
  closeButton.addEventListener("click", close)
  panel.addEventListener("keydown", function(event) {
    if (event.key === "Escape") {
      event.preventDefault()
      close()
    }
  })
  form.addEventListener("submit", function(event) {
    event.preventDefault()
    var text = input.value.trim()
    if (!text || busy || ended || (!sessionId && !agentToken)) return
    input.value = ""
    if (agentToken) sendAgent(text)
    else send({ text })
  })

  var mount = function() {
    document.body.appendChild(host)
    if (options.open === "true" || store.get("open")) open(false)
  }
  if (document.body) mount()
  else document.addEventListener("DOMContentLoaded", mount)
})()
