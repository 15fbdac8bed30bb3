<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
  <context>
    <name>App</name>
    <message>
      <source>Preparing the demo database…</source>
      <translation>正在准备演示数据库…</translation>
    </message>
    <message>
      <source>Cannot open the demo</source>
      <translation>无法打开演示数据库</translation>
    </message>
    <message>
      <source>Cannot show the selection</source>
      <translation>无法显示所选内容</translation>
    </message>
    <message>
      <source>--view turn needs --select with a turn or a request</source>
      <translation>--view turn 需要用 --select 指定一个回合或请求</translation>
    </message>
    <message>
      <source>--view compare needs --select with a request</source>
      <translation>--view compare 需要用 --select 指定一个请求</translation>
    </message>
    <message>
      <source>This runtime did not run in an earlier turn of the session.</source>
      <translation>该运行时在本会话更早的回合中没有运行过。</translation>
    </message>
    <message>
      <source>Something went wrong</source>
      <translation>出错了</translation>
    </message>
  </context>
  <context>
    <name>ExportMenu</name>
    <message>
      <source>CSV (*.csv)</source>
      <translation>CSV (*.csv)</translation>
    </message>
    <message>
      <source>HTML report (*.html)</source>
      <translation>HTML 报告 (*.html)</translation>
    </message>
    <message>
      <source>Text (*.txt)</source>
      <translation>文本 (*.txt)</translation>
    </message>
    <message>
      <source>JSON (*.json)</source>
      <translation>JSON (*.json)</translation>
    </message>
    <message>
      <source>Markdown (*.md)</source>
      <translation>Markdown (*.md)</translation>
    </message>
    <message>
      <source>&amp;Export</source>
      <translation>导出(&amp;E)</translation>
    </message>
    <message>
      <source>Cache Table as &amp;CSV…</source>
      <translation>缓存表为 CSV(&amp;C)…</translation>
    </message>
    <message>
      <source>Save the session's cache analysis, one row per request, as `cache --csv` writes it</source>
      <translation>保存会话的缓存分析，每个请求一行，与 `cache --csv` 的输出相同</translation>
    </message>
    <message>
      <source>Cache Table as &amp;HTML…</source>
      <translation>缓存表为 HTML(&amp;H)…</translation>
    </message>
    <message>
      <source>Save the session's cache analysis as a self-contained HTML report, as `cache --html` writes it</source>
      <translation>将会话的缓存分析保存为独立的 HTML 报告，与 `cache --html` 的输出相同</translation>
    </message>
    <message>
      <source>C&amp;omparison…</source>
      <translation>比较结果(&amp;O)…</translation>
    </message>
    <message>
      <source>Save the comparison the request view shows, as `compare` prints it (text or JSON)</source>
      <translation>保存请求视图显示的比较结果，与 `compare` 的输出相同（文本或 JSON）</translation>
    </message>
    <message>
      <source>&amp;Turn Summary…</source>
      <translation>回合摘要(&amp;T)…</translation>
    </message>
    <message>
      <source>Save what the turn in the stepper did, with its outline (Markdown or JSON)</source>
      <translation>保存步进器中该回合所做的事及其大纲（Markdown 或 JSON）</translation>
    </message>
    <message>
      <source>Export Cache Table</source>
      <translation>导出缓存表</translation>
    </message>
    <message>
      <source>Export Comparison</source>
      <translation>导出比较结果</translation>
    </message>
    <message>
      <source>Export Turn Summary</source>
      <translation>导出回合摘要</translation>
    </message>
    <message>
      <source>All files (*)</source>
      <translation>所有文件 (*)</translation>
    </message>
    <message>
      <source>Saved {path}</source>
      <translation>已保存 {path}</translation>
    </message>
    <message>
      <source>Cannot write {path}: {error}</source>
      <translation>无法写入 {path}：{error}</translation>
    </message>
  </context>
  <context>
    <name>Follow</name>
    <message>
      <source>&amp;Follow Live Changes</source>
      <translation>跟随实时变化(&amp;F)</translation>
    </message>
    <message>
      <source>Show new turns, runtimes and requests as the engine writes them, without reloading</source>
      <translation>引擎写入新的回合、运行时和请求时立即显示，无需重新加载</translation>
    </message>
    <message>
      <source>Follow &amp;Latest Turn</source>
      <translation>跟随最新回合(&amp;L)</translation>
    </message>
    <message>
      <source>While following, select each new turn as it appears</source>
      <translation>跟随时，每出现一个新回合就选中它</translation>
    </message>
    <message>
      <source>Following</source>
      <translation>正在跟随</translation>
    </message>
    <message>
      <source>Following live changes: the database is read every {ms} ms</source>
      <translation>正在跟随实时变化：每 {ms} 毫秒读取一次数据库</translation>
    </message>
    <message>
      <source>Following live changes; last change merged at {time}</source>
      <translation>正在跟随实时变化；最近一次合并变化于 {time}</translation>
    </message>
    <message>
      <source>Following: could not read the database ({reason})</source>
      <translation>跟随：无法读取数据库（{reason}）</translation>
    </message>
  </context>
  <context>
    <name>ItemActions</name>
    <message>
      <source>Copied the row</source>
      <translation>已复制该行</translation>
    </message>
    <message>
      <source>Copied the id</source>
      <translation>已复制 ID</translation>
    </message>
    <message>
      <source>&amp;Copy</source>
      <translation>复制(&amp;C)</translation>
    </message>
    <message>
      <source>Copied as JSON</source>
      <translation>已复制为 JSON</translation>
    </message>
    <message>
      <source>Compare with the &amp;Shown Request</source>
      <translation>与当前显示的请求比较(&amp;S)</translation>
    </message>
    <message>
      <source>Compare this request (left) with the request the request view shows (right)</source>
      <translation>将此请求（左）与请求视图中显示的请求（右）进行比较</translation>
    </message>
    <message>
      <source>Copy the selected rows of a tree or table</source>
      <translation>复制树或表格中选中的行</translation>
    </message>
    <message>
      <source>Row actions of a tree or table: copy, copy id, copy as JSON, compare</source>
      <translation>树或表格的行操作：复制、复制 ID、复制为 JSON、比较</translation>
    </message>
    <message>
      <source>Copied {count} rows</source>
      <translation>已复制 {count} 行</translation>
    </message>
    <message>
      <source>Copied {count} ids</source>
      <translation>已复制 {count} 个 ID</translation>
    </message>
    <message>
      <source>Copy &amp;Id</source>
      <translation>复制 ID(&amp;I)</translation>
    </message>
    <message>
      <source>Copy &amp;Ids</source>
      <translation>复制 ID(&amp;I)</translation>
    </message>
    <message>
      <source>Copy as &amp;JSON</source>
      <translation>复制为 JSON(&amp;J)</translation>
    </message>
  </context>
  <context>
    <name>AnatomyModel</name>
    <message>
      <source>position</source>
      <translation>位置</translation>
    </message>
    <message>
      <source>marker</source>
      <translation>标记</translation>
    </message>
    <message>
      <source>structure</source>
      <translation>结构</translation>
    </message>
    <message>
      <source>sentinel</source>
      <translation>哨兵</translation>
    </message>
    <message>
      <source>guess</source>
      <translation>推测</translation>
    </message>
    <message>
      <source>Part</source>
      <translation>部分</translation>
    </message>
    <message>
      <source>Role</source>
      <translation>角色</translation>
    </message>
    <message>
      <source>Recognised by</source>
      <translation>识别依据</translation>
    </message>
    <message>
      <source>Tokens</source>
      <translation>Token</translation>
    </message>
    <message>
      <source>Estimate</source>
      <translation>估算</translation>
    </message>
    <message>
      <source>Share</source>
      <translation>占比</translation>
    </message>
    <message>
      <source>The part of the request, as Covel assembled it</source>
      <translation>请求的组成部分，按 Covel 的组装方式划分</translation>
    </message>
    <message>
      <source>Message role</source>
      <translation>消息角色</translation>
    </message>
    <message>
      <source>How the part was recognised: sentinel, marker, position, structure or guess</source>
      <translation>该部分的识别方式：哨兵、标记、位置、结构或推测</translation>
    </message>
    <message>
      <source>Exact tokens with the model's tokenizer (or its closest proxy)</source>
      <translation>用模型的分词器（或最接近的替代）计算的精确 token 数</translation>
    </message>
    <message>
      <source>Covel's own estimate (characters / 4, CJK characters one each)</source>
      <translation>Covel 自己的估算（字符数 / 4，每个中日韩字符计 1）</translation>
    </message>
    <message>
      <source>Share of the whole request's exact tokens</source>
      <translation>占整个请求精确 token 数的比例</translation>
    </message>
    <message>
      <source>── cache breakpoint ──</source>
      <translation>── 缓存断点 ──</translation>
    </message>
    <message>
      <source>The provider caches the request up to this point ({label})</source>
      <translation>服务商会缓存到此处为止的请求（{label}）</translation>
    </message>
  </context>
  <context>
    <name>CacheView</name>
    <message>
      <source>↳ step {step}</source>
      <translation>↳ 第 {step} 步</translation>
    </message>
    <message>
      <source>Turn {number}
{id}</source>
      <translation>第 {number} 回合
{id}</translation>
    </message>
    <message>
      <source> · attempt {n}</source>
      <translation> · 第 {n} 次尝试</translation>
    </message>
    <message>
      <source>(no runtime)</source>
      <translation>（无运行时）</translation>
    </message>
    <message>
      <source>first request of the turn</source>
      <translation>回合的首个请求</translation>
    </message>
    <message>
      <source>{n} h</source>
      <translation>{n} 小时</translation>
    </message>
    <message>
      <source>Confidence: &lt;b&gt;uncertain&lt;/b&gt; — a count or gap lies within the error band of a threshold</source>
      <translation>置信度：&lt;b&gt;不确定&lt;/b&gt; — 某个计数或间隔落在阈值的误差带内</translation>
    </message>
    <message>
      <source>Route: {rate} requests in the minute up to this one (some overflow to other machines above ~{limit:g})</source>
      <translation>路由：此前一分钟内（含本次）{rate} 个请求（超过约 {limit:g} 个时部分请求会溢出到其他机器）</translation>
    </message>
    <message>
      <source>tool-loop step {step}</source>
      <translation>工具循环第 {step} 步</translation>
    </message>
    <message>
      <source>input cost ${usd}</source>
      <translation>输入费用 ${usd}</translation>
    </message>
    <message>
      <source>The input of {n} priced requests by billing class:</source>
      <translation>{n} 个有价格的请求的输入，按计费类别：</translation>
    </message>
    <message>
      <source>{n} s</source>
      <translation>{n} 秒</translation>
    </message>
    <message>
      <source>{n} min</source>
      <translation>{n} 分钟</translation>
    </message>
    <message>
      <source>&lt;b&gt;{runtime}&lt;/b&gt; · {kind}</source>
      <translation>&lt;b&gt;{runtime}&lt;/b&gt; · {kind}</translation>
    </message>
    <message>
      <source>Shared prefix: {shared} of {total} tokens ({pct})</source>
      <translation>共享前缀：{total} 个 token 中的 {shared} 个（{pct}）</translation>
    </message>
    <message>
      <source>Cached tokens: predicted {predicted}, reported {reported}</source>
      <translation>缓存 token：预测 {predicted}，报告 {reported}</translation>
    </message>
    <message>
      <source>Gap since the earlier request: {gap} (cache lifetime {ttl})</source>
      <translation>距上一个请求：{gap}（缓存有效期 {ttl}）</translation>
    </message>
    <message>
      <source>Reason: &lt;b&gt;{reason}&lt;/b&gt; — {detail}</source>
      <translation>原因：&lt;b&gt;{reason}&lt;/b&gt; — {detail}</translation>
    </message>
    <message>
      <source>First difference: {part} at character {offset}</source>
      <translation>首个差异：{part}，字符偏移 {offset}</translation>
    </message>
    <message>
      <source>cold start</source>
      <translation>冷启动</translation>
    </message>
    <message>
      <source>expired</source>
      <translation>已过期</translation>
    </message>
    <message>
      <source>model changed</source>
      <translation>模型已改变</translation>
    </message>
    <message>
      <source>tools changed</source>
      <translation>工具已改变</translation>
    </message>
    <message>
      <source>system prompt changed</source>
      <translation>系统提示词已改变</translation>
    </message>
    <message>
      <source>history rewritten</source>
      <translation>历史被改写</translation>
    </message>
    <message>
      <source>turn context</source>
      <translation>回合上下文</translation>
    </message>
    <message>
      <source>below the minimum</source>
      <translation>低于最小长度</translation>
    </message>
    <message>
      <source>options changed</source>
      <translation>选项已改变</translation>
    </message>
    <message>
      <source>reported by the provider</source>
      <translation>服务商报告</translation>
    </message>
    <message>
      <source>unexplained</source>
      <translation>原因不明</translation>
    </message>
    <message>
      <source>tools</source>
      <translation>工具</translation>
    </message>
    <message>
      <source>request settings</source>
      <translation>请求设置</translation>
    </message>
    <message>
      <source>system prompt</source>
      <translation>系统提示词</translation>
    </message>
    <message>
      <source>history</source>
      <translation>历史</translation>
    </message>
    <message>
      <source>end of the request</source>
      <translation>请求末尾</translation>
    </message>
    <message>
      <source>Confidence: certain</source>
      <translation>置信度：确定</translation>
    </message>
    <message>
      <source>&lt;b&gt;Our reason and the provider's disagree.&lt;/b&gt;</source>
      <translation>&lt;b&gt;我们的原因与服务商的判定不一致。&lt;/b&gt;</translation>
    </message>
    <message>
      <source>Route: {rate} requests in the minute up to this one</source>
      <translation>路由：此前一分钟内（含本次）{rate} 个请求</translation>
    </message>
    <message>
      <source>tool-loop step {step}, attempt {attempt}</source>
      <translation>工具循环第 {step} 步，第 {attempt} 次尝试</translation>
    </message>
    <message>
      <source>uncached input</source>
      <translation>未缓存输入</translation>
    </message>
    <message>
      <source>cache read</source>
      <translation>缓存读取</translation>
    </message>
    <message>
      <source>5-minute write</source>
      <translation>5 分钟写入</translation>
    </message>
    <message>
      <source>1-hour write</source>
      <translation>1 小时写入</translation>
    </message>
    <message>
      <source>{name}: {tokens} tokens, ${usd}</source>
      <translation>{name}：{tokens} 个 token，${usd}</translation>
    </message>
    <message>
      <source>Provider's verdict: &lt;b&gt;{reason}&lt;/b&gt; ({missed} input tokens missed)</source>
      <translation>服务商的判定：&lt;b&gt;{reason}&lt;/b&gt;（未命中 {missed} 个输入 token）</translation>
    </message>
    <message>
      <source>Tool-loop steps</source>
      <translation>工具循环步骤</translation>
    </message>
    <message>
      <source>Also show a row per tool-loop step and retry, compared with the call before it</source>
      <translation>同时为每个工具循环步骤和重试显示一行，与其前一次调用比较</translation>
    </message>
    <message>
      <source>Session</source>
      <translation>会话</translation>
    </message>
    <message>
      <source>Shared prefix as % of the request's tokens; double-click to open the request</source>
      <translation>共享前缀占请求 token 的百分比；双击打开请求</translation>
    </message>
    <message>
      <source>read back from the kept analysis in {s}</source>
      <translation>从保存的分析读回，用时 {s}</translation>
    </message>
    <message>
      <source>the kept analysis was ignored</source>
      <translation>保存的分析已忽略</translation>
    </message>
    <message>
      <source>No database is open.</source>
      <translation>没有打开的数据库。</translation>
    </message>
    <message>
      <source>Pick a session to analyse its prompt cache.</source>
      <translation>选择一个会话以分析其提示词缓存。</translation>
    </message>
    <message>
      <source>{n} requests</source>
      <translation>{n} 个请求</translation>
    </message>
    <message>
      <source>analysed in {s} by two processes</source>
      <translation>分析用时 {s}（两个进程）</translation>
    </message>
    <message>
      <source>analysed in {s}</source>
      <translation>分析用时 {s}</translation>
    </message>
    <message>
      <source>analysing the rows written since…</source>
      <translation>正在分析此后写入的行…</translation>
    </message>
    <message>
      <source>analysing…</source>
      <translation>正在分析…</translation>
    </message>
    <message>
      <source>The analysis failed: {error}</source>
      <translation>分析失败：{error}</translation>
    </message>
    <message>
      <source>shared {pct} of {total} tokens</source>
      <translation>{total} 个 token 中共享 {pct}</translation>
    </message>
    <message>
      <source>cached: predicted {predicted}, reported {reported}</source>
      <translation>缓存：预测 {predicted}，报告 {reported}</translation>
    </message>
    <message>
      <source>{n} model requests</source>
      <translation>{n} 个模型请求</translation>
    </message>
    <message>
      <source>Turn-volatile text in the system prompt</source>
      <translation>系统提示词中含每回合变化的文本</translation>
    </message>
    <message>
      <source>Too many cache breakpoints</source>
      <translation>缓存断点过多</translation>
    </message>
    <message>
      <source>Breakpoint on volatile content</source>
      <translation>断点位于易变内容上</translation>
    </message>
    <message>
      <source>Data blocks last</source>
      <translation>数据块位于末尾</translation>
    </message>
    <message>
      <source>Sliding history window</source>
      <translation>滑动的历史窗口</translation>
    </message>
    <message>
      <source>Moving history insertion</source>
      <translation>移动的历史插入</translation>
    </message>
    <message>
      <source>Breakpoint below the minimum</source>
      <translation>断点低于最小长度</translation>
    </message>
    <message>
      <source>Cache writes never read</source>
      <translation>写入缓存却从未读取</translation>
    </message>
    <message>
      <source>A 1-hour TTL would pay</source>
      <translation>1 小时 TTL 更划算</translation>
    </message>
    <message>
      <source>Input cost by billing class</source>
      <translation>按计费类别的输入费用</translation>
    </message>
    <message>
      <source>Layout check</source>
      <translation>布局检查</translation>
    </message>
    <message>
      <source>Runtime</source>
      <translation>运行时</translation>
    </message>
    <message>
      <source>Part</source>
      <translation>部分</translation>
    </message>
    <message>
      <source>Turns</source>
      <translation>回合</translation>
    </message>
    <message>
      <source>Layout checks run when the analysis of the session is complete.</source>
      <translation>会话分析完成后运行布局检查。</translation>
    </message>
    <message>
      <source>No layout problems found in this session.</source>
      <translation>此会话未发现布局问题。</translation>
    </message>
    <message>
      <source>Select a finding for its explanation; it selects the first turn it concerns.</source>
      <translation>选择一条发现查看说明；会同时选中它涉及的第一个回合。</translation>
    </message>
    <message>
      <source>e.g. {part}: “{was}” → “{now}”</source>
      <translation>例如 {part}：“{was}” → “{now}”</translation>
    </message>
    <message>
      <source>Open earlier request</source>
      <translation>打开上一个请求</translation>
    </message>
    <message>
      <source>Show the earlier request of this pair in the request view</source>
      <translation>在请求视图中显示这一对中较早的请求</translation>
    </message>
    <message>
      <source>Open request</source>
      <translation>打开请求</translation>
    </message>
    <message>
      <source>Show this request in the request view</source>
      <translation>在请求视图中显示此请求</translation>
    </message>
    <message>
      <source>Go to difference</source>
      <translation>转到差异处</translation>
    </message>
    <message>
      <source>Select the part where the cached prefix ends and mark the character</source>
      <translation>选中缓存前缀结束的部分并标出该字符</translation>
    </message>
    <message>
      <source>Select a cell of the table to compare its request with the earlier one.</source>
      <translation>选择表格中的单元格，将其请求与上一个请求比较。</translation>
    </message>
    <message>
      <source>&lt;b&gt;{runtime}&lt;/b&gt; · {kind} · {reason}</source>
      <translation>&lt;b&gt;{runtime}&lt;/b&gt; · {kind} · {reason}</translation>
    </message>
    <message>
      <source>shared {shared} of {total} tokens ({pct}) · cached: predicted {predicted}, reported {reported} · gap {gap} (lifetime {ttl})</source>
      <translation>共享 {total} 个 token 中的 {shared} 个（{pct}）· 缓存：预测 {predicted}，报告 {reported} · 间隔 {gap}（有效期 {ttl}）</translation>
    </message>
    <message>
      <source>First difference: &lt;b&gt;{part}&lt;/b&gt; at character {offset} — {detail}</source>
      <translation>首个差异：&lt;b&gt;{part}&lt;/b&gt;，字符偏移 {offset} — {detail}</translation>
    </message>
    <message>
      <source>The text around the first difference, as the analysis compared it ({before} characters before, {after} after)</source>
      <translation>首个差异处前后的文本，即分析所比较的内容（之前 {before} 个字符，之后 {after} 个）</translation>
    </message>
    <message>
      <source>One of the two requests is no longer in the database.</source>
      <translation>两个请求之一已不在数据库中。</translation>
    </message>
    <message>
      <source>this</source>
      <translation>本次</translation>
    </message>
    <message>
      <source>Aligning the two requests…</source>
      <translation>正在对齐两个请求…</translation>
    </message>
    <message>
      <source>Cannot compare the two requests: {error}</source>
      <translation>无法比较这两个请求：{error}</translation>
    </message>
    <message>
      <source>earlier</source>
      <translation>上次</translation>
    </message>
    <message>
      <source>(ended here)</source>
      <translation>（在此结束）</translation>
    </message>
    <message>
      <source>Earlier {left} · this {right}</source>
      <translation>上一个 {left} · 本请求 {right}</translation>
    </message>
    <message>
      <source>Aligned parts: {equal} equal, {changed} changed, {moved} moved, {added} added, {removed} removed</source>
      <translation>对齐的部分：{equal} 个相同，{changed} 个已更改，{moved} 个已移动，{added} 个新增，{removed} 个移除</translation>
    </message>
    <message>
      <source>Tokens over turns</source>
      <translation>各回合的 token 数</translation>
    </message>
    <message>
      <source>Cell colour: share of the request's tokens in the prefix shared with the earlier request (grey: the runtime's first request)</source>
      <translation>单元格颜色：请求中与上一个请求共享前缀的 token 占比（灰色：该运行时的首个请求）</translation>
    </message>
    <message>
      <source>Total: the request's tokens; Shared: the prefix shared with the earlier request; Predicted/Reported: cached tokens by the provider's rules / as the response recorded them</source>
      <translation>总计：请求的 token 数；共享：与上一个请求共享的前缀；预测/报告：按服务商规则预测的缓存 token / 响应记录的缓存 token</translation>
    </message>
    <message>
      <source>Total</source>
      <translation>总计</translation>
    </message>
    <message>
      <source>Shared</source>
      <translation>共享</translation>
    </message>
    <message>
      <source>Predicted</source>
      <translation>预测</translation>
    </message>
    <message>
      <source>Reported</source>
      <translation>报告</translation>
    </message>
    <message>
      <source>Turn</source>
      <translation>回合</translation>
    </message>
    <message>
      <source>Tokens over turns · {runtime}</source>
      <translation>各回合的 token 数 · {runtime}</translation>
    </message>
  </context>
  <context>
    <name>Navigator</name>
    <message>
      <source>Name</source>
      <translation>名称</translation>
    </message>
    <message>
      <source>Detail</source>
      <translation>详情</translation>
    </message>
    <message>
      <source>Tokens</source>
      <translation>Token</translation>
    </message>
    <message>
      <source>Cached</source>
      <translation>已缓存</translation>
    </message>
    <message>
      <source>Duration</source>
      <translation>耗时</translation>
    </message>
    <message>
      <source>Session, turn, runtime id, or tool-loop step and attempt</source>
      <translation>会话、回合、运行时 ID，或工具循环步骤与尝试次数</translation>
    </message>
    <message>
      <source>World and turns, origin and status, stage and status, or model</source>
      <translation>世界与回合、来源与状态、阶段与状态，或模型</translation>
    </message>
    <message>
      <source>Input tokens reported by the provider (cache reads and writes included)</source>
      <translation>服务商报告的输入 token（含缓存读取与写入）</translation>
    </message>
    <message>
      <source>Input tokens the provider served from its prompt cache</source>
      <translation>服务商从提示词缓存中提供的输入 token</translation>
    </message>
    <message>
      <source>Wall-clock duration</source>
      <translation>实际耗时</translation>
    </message>
    <message>
      <source>unknown model</source>
      <translation>未知模型</translation>
    </message>
    <message>
      <source>(no runtime id)</source>
      <translation>（无运行时 ID）</translation>
    </message>
    <message>
      <source>{n} turn</source>
      <translation>{n} 个回合</translation>
    </message>
    <message>
      <source>{n} turns</source>
      <translation>{n} 个回合</translation>
    </message>
    <message>
      <source>{n} execution</source>
      <translation>{n} 次执行</translation>
    </message>
    <message>
      <source>{n} executions</source>
      <translation>{n} 次执行</translation>
    </message>
    <message>
      <source>{n} request</source>
      <translation>{n} 个请求</translation>
    </message>
    <message>
      <source>{n} requests</source>
      <translation>{n} 个请求</translation>
    </message>
    <message>
      <source>Step {step}</source>
      <translation>步骤 {step}</translation>
    </message>
    <message>
      <source>Turn id {id}, started {time}</source>
      <translation>回合 ID {id}，开始于 {time}</translation>
    </message>
    <message>
      <source>no result</source>
      <translation>无结果</translation>
    </message>
    <message>
      <source>no stage</source>
      <translation>无阶段</translation>
    </message>
    <message>
      <source>Plugin {plugin}</source>
      <translation>插件 {plugin}</translation>
    </message>
    <message>
      <source>attempt {attempt}</source>
      <translation>第 {attempt} 次尝试</translation>
    </message>
    <message>
      <source>Session {id}</source>
      <translation>会话 {id}</translation>
    </message>
    <message>
      <source>Failed: {error}</source>
      <translation>失败：{error}</translation>
    </message>
    <message>
      <source>Request event {id}</source>
      <translation>请求事件 {id}</translation>
    </message>
    <message>
      <source>{m} min {s} s</source>
      <translation>{m} 分 {s} 秒</translation>
    </message>
    <message>
      <source>{ms} ms</source>
      <translation>{ms} 毫秒</translation>
    </message>
    <message>
      <source>{s:.2f} s</source>
      <translation>{s:.2f} 秒</translation>
    </message>
    <message>
      <source>Navigator</source>
      <translation>导航栏</translation>
    </message>
    <message>
      <source>Search prompts…</source>
      <translation>搜索提示词…</translation>
    </message>
    <message>
      <source>Find requests whose prompt contains this text (Ctrl+F)</source>
      <translation>查找提示词中包含此文本的请求（Ctrl+F）</translation>
    </message>
    <message>
      <source>Show only requests of this runtime</source>
      <translation>只显示此运行时的请求</translation>
    </message>
    <message>
      <source>Show only requests sent to this model</source>
      <translation>只显示发送给此模型的请求</translation>
    </message>
    <message>
      <source>Requests whose prompt contains the search text (F3: next, Shift+F3: previous)</source>
      <translation>提示词包含搜索文本的请求（F3：下一个，Shift+F3：上一个）</translation>
    </message>
    <message>
      <source>Find &amp;Next</source>
      <translation>查找下一个(&amp;N)</translation>
    </message>
    <message>
      <source>Select the next request the search found</source>
      <translation>选择搜索找到的下一个请求</translation>
    </message>
    <message>
      <source>Find &amp;Previous</source>
      <translation>查找上一个(&amp;P)</translation>
    </message>
    <message>
      <source>Select the previous request the search found</source>
      <translation>选择搜索找到的上一个请求</translation>
    </message>
    <message>
      <source>All runtimes</source>
      <translation>全部运行时</translation>
    </message>
    <message>
      <source>All models</source>
      <translation>全部模型</translation>
    </message>
    <message>
      <source>Searching…</source>
      <translation>正在搜索…</translation>
    </message>
    <message>
      <source>No match</source>
      <translation>无匹配</translation>
    </message>
    <message>
      <source>No model request with id {id} in this database.</source>
      <translation>此数据库中没有 ID 为 {id} 的模型请求。</translation>
    </message>
    <message>
      <source>Searched every prompt by scanning: {why}</source>
      <translation>已逐条扫描所有提示词：{why}</translation>
    </message>
    <message>
      <source>1 request</source>
      <translation>1 个请求</translation>
    </message>
    <message>
      <source>{at} of {count}</source>
      <translation>第 {at} 个，共 {count} 个</translation>
    </message>
    <message>
      <source>{count} requests</source>
      <translation>{count} 个请求</translation>
    </message>
  </context>
  <context>
    <name>OrderEditor</name>
    <message>
      <source>Cannot open the context-order table</source>
      <translation>无法打开上下文顺序表</translation>
    </message>
    <message>
      <source>Worker slots</source>
      <translation>Worker 槽</translation>
    </message>
    <message>
      <source>The slot to edit and preview</source>
      <translation>要编辑和预览的槽</translation>
    </message>
    <message>
      <source>Play slots (run each turn)</source>
      <translation>游玩槽（每轮运行）</translation>
    </message>
    <message>
      <source>Brief (optional)</source>
      <translation>概要（可选）</translation>
    </message>
    <message>
      <source>The order table's brief: a one-line summary written into the file</source>
      <translation>排序表的 brief：写入文件的一行概要</translation>
    </message>
    <message>
      <source>blackboard tag to add</source>
      <translation>要添加的黑板标签</translation>
    </message>
    <message>
      <source>Tags on the blackboard not yet in this slot come first; any tag or prefix pattern (设计.*) may be typed</source>
      <translation>本槽尚未使用的黑板标签排在前面；也可以输入任意标签或前缀模式（设计.*）</translation>
    </message>
    <message>
      <source>Add</source>
      <translation>添加</translation>
    </message>
    <message>
      <source>Add the tag below the selected row (at the end when none is selected)</source>
      <translation>把标签添加到所选行下方（未选中时添加到末尾）</translation>
    </message>
    <message>
      <source>Assembly options</source>
      <translation>拼装选项</translation>
    </message>
    <message>
      <source>hysteresis (n…2n)</source>
      <translation>滞回（n…2n）</translation>
    </message>
    <message>
      <source>sliding window (the code)</source>
      <translation>滑动窗口（原代码）</translation>
    </message>
    <message>
      <source>hysteresis: the history grows from n to 2n blocks, then is cut back to n, so the cache breaks every n turns; window: the public code's last n blocks, which moves every turn</source>
      <translation>滞回：历史从 n 段增长到 2n 段后再裁回 n 段，缓存每 n 轮才断一次；窗口：公开代码的最近 n 段，每轮都会移动</translation>
    </message>
    <message>
      <source>cut above 2n (&gt;)</source>
      <translation>超过 2n 时裁剪（&gt;）</translation>
    </message>
    <message>
      <source>cut at 2n (&gt;=)</source>
      <translation>达到 2n 时裁剪（&gt;=）</translation>
    </message>
    <message>
      <source>shows n</source>
      <translation>显示 n</translation>
    </message>
    <message>
      <source>shows the kept count</source>
      <translation>显示保留段数</translation>
    </message>
    <message>
      <source>none</source>
      <translation>无</translation>
    </message>
    <message>
      <source>The （仅最近 n 段，更早已省略） line before a cut history; the kept count changes every turn and so breaks the cache every turn</source>
      <translation>裁剪后历史前的「（仅最近 n 段，更早已省略）」一行；保留段数每轮都变，因此每轮都会破坏缓存</translation>
    </message>
    <message>
      <source>join the previous message</source>
      <translation>并入上一条消息</translation>
    </message>
    <message>
      <source>a system message</source>
      <translation>作为系统消息</translation>
    </message>
    <message>
      <source>a user message</source>
      <translation>作为用户消息</translation>
    </message>
    <message>
      <source>the worker's own</source>
      <translation>按 worker 自身设置</translation>
    </message>
    <message>
      <source>History as role messages</source>
      <translation>历史拆成角色消息</translation>
    </message>
    <message>
      <source>Split the projected history into user / assistant / system messages; off: one block, as the code sends it</source>
      <translation>把投影后的历史拆成用户 / 助手 / 系统消息；关闭：像原代码那样作为一整块发送</translation>
    </message>
    <message>
      <source>The code's policies (tail_tokens_N reserved)</source>
      <translation>原代码的 policy（tail_tokens_N 仅预留）</translation>
    </message>
    <message>
      <source>Reproduce the original's isolation leak</source>
      <translation>重现原版的隔离泄漏</translation>
    </message>
    <message>
      <source>The original reads a hidden tag through its blackboard fallback when a segment names it; on: do the same, to compare</source>
      <translation>原版在段点名隐藏标签时会经由黑板回退读到它；开启：照样读取，以便对比</translation>
    </message>
    <message>
      <source>Encoding</source>
      <translation>编码</translation>
    </message>
    <message>
      <source>History cut</source>
      <translation>历史裁剪</translation>
    </message>
    <message>
      <source>Boundary</source>
      <translation>边界</translation>
    </message>
    <message>
      <source>Marker</source>
      <translation>标记</translation>
    </message>
    <message>
      <source>n (fields, summary, full)</source>
      <translation>n（fields、summary、full）</translation>
    </message>
    <message>
      <source>Blocks without a role</source>
      <translation>无角色的段</translation>
    </message>
    <message>
      <source>Isolation</source>
      <translation>隔离</translation>
    </message>
    <message>
      <source>Variant</source>
      <translation>变体</translation>
    </message>
    <message>
      <source>&amp;File</source>
      <translation>文件(&amp;F)</translation>
    </message>
    <message>
      <source>&amp;Open Order…</source>
      <translation>打开排序表(&amp;O)…</translation>
    </message>
    <message>
      <source>Open a context-order.v1 table (or a worker set holding one)</source>
      <translation>打开 context-order.v1 排序表（或包含它的 worker 集）</translation>
    </message>
    <message>
      <source>Open &amp;Blackboard…</source>
      <translation>打开黑板(&amp;B)…</translation>
    </message>
    <message>
      <source>Open the scenario: blackboard items and workers (JSON or YAML)</source>
      <translation>打开场景：黑板条目与 worker（JSON 或 YAML）</translation>
    </message>
    <message>
      <source>&amp;Save</source>
      <translation>保存(&amp;S)</translation>
    </message>
    <message>
      <source>Save &amp;As…</source>
      <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
      <source>&amp;Close</source>
      <translation>关闭(&amp;C)</translation>
    </message>
    <message>
      <source>&amp;Edit</source>
      <translation>编辑(&amp;E)</translation>
    </message>
    <message>
      <source>&amp;Undo</source>
      <translation>撤销(&amp;U)</translation>
    </message>
    <message>
      <source>&amp;Redo</source>
      <translation>重做(&amp;R)</translation>
    </message>
    <message>
      <source>Move &amp;Up</source>
      <translation>上移(&amp;U)</translation>
    </message>
    <message>
      <source>Swap the row with the one above (Alt+Up)</source>
      <translation>与上一行交换（Alt+上）</translation>
    </message>
    <message>
      <source>Move &amp;Down</source>
      <translation>下移(&amp;D)</translation>
    </message>
    <message>
      <source>Swap the row with the one below (Alt+Down)</source>
      <translation>与下一行交换（Alt+下）</translation>
    </message>
    <message>
      <source>&amp;Before History</source>
      <translation>移到历史前(&amp;B)</translation>
    </message>
    <message>
      <source>Move the row just before 对话.历史: it joins the cached prefix (Alt+Left)</source>
      <translation>把该行移到 对话.历史 之前：它进入缓存前缀（Alt+左）</translation>
    </message>
    <message>
      <source>&amp;After History</source>
      <translation>移到历史后(&amp;A)</translation>
    </message>
    <message>
      <source>Move the row just after 对话.历史: it may change without breaking the cache (Alt+Right)</source>
      <translation>把该行移到 对话.历史 之后：它变化也不会破坏缓存（Alt+右）</translation>
    </message>
    <message>
      <source>Add &amp;Insert</source>
      <translation>添加插入项(&amp;I)</translation>
    </message>
    <message>
      <source>Add the tag in the Add box below the selected row</source>
      <translation>把“添加”框中的标签加到所选行下方</translation>
    </message>
    <message>
      <source>&amp;Remove Insert</source>
      <translation>删除插入项(&amp;R)</translation>
    </message>
    <message>
      <source>Remove the selected row (Delete)</source>
      <translation>删除所选行（Delete）</translation>
    </message>
    <message>
      <source>Replace from &amp;Clipboard</source>
      <translation>用剪贴板替换(&amp;C)</translation>
    </message>
    <message>
      <source>Replace the whole table with the one on the clipboard (JSON, agents[] or a reply with a fenced block)</source>
      <translation>用剪贴板中的排序表替换整张表（JSON、agents[] 或带代码块的回复）</translation>
    </message>
    <message>
      <source>Edit brief</source>
      <translation>编辑概要</translation>
    </message>
    <message>
      <source>Move {ref} before the history</source>
      <translation>把 {ref} 移到历史前</translation>
    </message>
    <message>
      <source>Move {ref} after the history</source>
      <translation>把 {ref} 移到历史后</translation>
    </message>
    <message>
      <source>Replace the table</source>
      <translation>替换排序表</translation>
    </message>
    <message>
      <source>untitled</source>
      <translation>未命名</translation>
    </message>
    <message>
      <source>Open Order Table</source>
      <translation>打开排序表</translation>
    </message>
    <message>
      <source>Order tables (*.json *.txt *.md);;All files (*)</source>
      <translation>排序表 (*.json *.txt *.md);;所有文件 (*)</translation>
    </message>
    <message>
      <source>Open Blackboard</source>
      <translation>打开黑板</translation>
    </message>
    <message>
      <source>Scenarios (*.yaml *.yml *.json);;All files (*)</source>
      <translation>场景 (*.yaml *.yml *.json);;所有文件 (*)</translation>
    </message>
    <message>
      <source>Save Order Table</source>
      <translation>保存排序表</translation>
    </message>
    <message>
      <source>JSON (*.json);;All files (*)</source>
      <translation>JSON (*.json);;所有文件 (*)</translation>
    </message>
    <message>
      <source>Unsaved changes</source>
      <translation>未保存的修改</translation>
    </message>
    <message>
      <source>The order table has unsaved changes. Save them?</source>
      <translation>排序表有未保存的修改。要保存吗？</translation>
    </message>
    <message>
      <source>The persona is pinned first: normalisation undid the move.</source>
      <translation>人设固定在首位：规范化撤销了这次移动。</translation>
    </message>
    <message>
      <source>There is no row to swap with there: the move was ignored.</source>
      <translation>那里没有可交换的行：移动被忽略。</translation>
    </message>
    <message>
      <source>The persona was moved back to the top: it is pinned first.</source>
      <translation>人设被移回顶部：它固定在首位。</translation>
    </message>
    <message>
      <source>The slot had no 对话.历史 row, so one was added.</source>
      <translation>该槽没有 对话.历史 行，已自动添加一行。</translation>
    </message>
    <message>
      <source>A second history row was dropped: a slot keeps only its first.</source>
      <translation>第二个历史行被丢弃：一个槽只保留第一个。</translation>
    </message>
    <message>
      <source>A history alias was rewritten to 对话.历史.</source>
      <translation>历史别名已改写为 对话.历史。</translation>
    </message>
    <message>
      <source>A deprecated anchor was dropped.</source>
      <translation>已丢弃废弃的 anchor。</translation>
    </message>
    <message>
      <source>The orders were renumbered.</source>
      <translation>序号已重新编排。</translation>
    </message>
    <message>
      <source>Brief</source>
      <translation>概要</translation>
    </message>
    <message>
      <source>Add insert:</source>
      <translation>添加插入项：</translation>
    </message>
    <message>
      <source>no variant</source>
      <translation>不用变体</translation>
    </message>
    <message>
      <source>No slot</source>
      <translation>没有槽</translation>
    </message>
    <message>
      <source>runs each turn</source>
      <translation>每轮运行</translation>
    </message>
    <message>
      <source>switched off in play_slots</source>
      <translation>已在 play_slots 中关闭</translation>
    </message>
    <message>
      <source>off in play_slots</source>
      <translation>play_slots 中已关闭</translation>
    </message>
    <message>
      <source>Previewing {name} · {slot}</source>
      <translation>预览 {name} · {slot}</translation>
    </message>
    <message>
      <source>Order Editor</source>
      <translation>排序表编辑器</translation>
    </message>
    <message>
      <source>(off)</source>
      <translation>（关）</translation>
    </message>
    <message>
      <source>Switch {slot} {state}</source>
      <translation>将 {slot} {state}</translation>
    </message>
    <message>
      <source>Type or pick a blackboard tag to add</source>
      <translation>请输入或选择要添加的黑板标签</translation>
    </message>
    <message>
      <source> (latest)</source>
      <translation>（最新）</translation>
    </message>
    <message>
      <source>{n} messages</source>
      <translation>{n} 条消息</translation>
    </message>
    <message>
      <source>{n:,} tokens ({encoding})</source>
      <translation>{n:,} 个 token（{encoding}）</translation>
    </message>
    <message>
      <source>isolation {mode}</source>
      <translation>隔离 {mode}</translation>
    </message>
    <message>
      <source>Cannot open the order table</source>
      <translation>无法打开排序表</translation>
    </message>
    <message>
      <source>Cannot open the blackboard</source>
      <translation>无法打开黑板</translation>
    </message>
    <message>
      <source>Cannot save the order table</source>
      <translation>无法保存排序表</translation>
    </message>
    <message>
      <source>Saved {path}</source>
      <translation>已保存 {path}</translation>
    </message>
    <message>
      <source>play_slots.{key}: worker {ref}</source>
      <translation>play_slots.{key}：worker {ref}</translation>
    </message>
    <message>
      <source>n for the {projection} projection</source>
      <translation>{projection} 投影的 n</translation>
    </message>
    <message>
      <source>{n} inserts</source>
      <translation>{n} 个插入项</translation>
    </message>
    <message>
      <source>the manifest's ({name})</source>
      <translation>按 manifest（{name}）</translation>
    </message>
    <message>
      <source>on</source>
      <translation>开启</translation>
    </message>
    <message>
      <source>off</source>
      <translation>关闭</translation>
    </message>
    <message>
      <source>turn {turn} of {count}</source>
      <translation>第 {turn} / {count} 轮</translation>
    </message>
    <message>
      <source>variant {name}</source>
      <translation>变体 {name}</translation>
    </message>
    <message>
      <source>Cannot assemble {slot}</source>
      <translation>无法拼装 {slot}</translation>
    </message>
  </context>
  <context>
    <name>OrderCommands</name>
    <message>
      <source>an insert needs a ref (a blackboard tag, worker.persona or 对话.历史)</source>
      <translation>插入项需要 ref（黑板标签、worker.persona 或 对话.历史）</translation>
    </message>
    <message>
      <source>a ref cannot be empty; remove the insert instead</source>
      <translation>ref 不能为空；如不需要，请删除该插入项</translation>
    </message>
    <message>
      <source>drop position {dest} is outside 0..{count}</source>
      <translation>放置位置 {dest} 超出 0..{count}</translation>
    </message>
  </context>
  <context>
    <name>OrderDocument</name>
    <message>
      <source>The order has no file yet: use Save As</source>
      <translation>排序表还没有文件：请用“另存为”</translation>
    </message>
    <message>
      <source>Cannot read {path}: {reason}</source>
      <translation>无法读取 {path}：{reason}</translation>
    </message>
    <message>
      <source>{path} is not UTF-8 text</source>
      <translation>{path} 不是 UTF-8 文本</translation>
    </message>
    <message>
      <source>Cannot write {path}: {reason}</source>
      <translation>无法写入 {path}：{reason}</translation>
    </message>
  </context>
  <context>
    <name>OrderModel</name>
    <message>
      <source>before history</source>
      <translation>历史之前</translation>
    </message>
    <message>
      <source>history</source>
      <translation>历史</translation>
    </message>
    <message>
      <source>after history</source>
      <translation>历史之后</translation>
    </message>
    <message>
      <source>turn</source>
      <translation>本轮</translation>
    </message>
    <message>
      <source>post-turn</source>
      <translation>本轮之后</translation>
    </message>
    <message>
      <source>(empty)</source>
      <translation>（空）</translation>
    </message>
    <message>
      <source>fixed</source>
      <translation>fixed 固定</translation>
    </message>
    <message>
      <source>full</source>
      <translation>full 全文</translation>
    </message>
    <message>
      <source>summary</source>
      <translation>summary 摘要</translation>
    </message>
    <message>
      <source>fields</source>
      <translation>fields 字段</translation>
    </message>
    <message>
      <source>The dialogue history. Rows above it are sent before the history and stay in the cached prefix; rows below it come after the history and may change every turn.</source>
      <translation>对话历史。它上面的行在历史之前发送，留在缓存前缀里；它下面的行在历史之后，每轮变化也不破坏缓存。</translation>
    </message>
    <message>
      <source>The slot's persona, pinned first: normalisation moves it back to the top.</source>
      <translation>槽位人设固定在首位：规范化会把它移回顶部。</translation>
    </message>
    <message>
      <source>Change ref of row {row}</source>
      <translation>修改第 {row} 行的 ref</translation>
    </message>
    <message>
      <source>Change label of row {row}</source>
      <translation>修改第 {row} 行的标题</translation>
    </message>
    <message>
      <source>Change note of row {row}</source>
      <translation>修改第 {row} 行的说明</translation>
    </message>
    <message>
      <source>#</source>
      <translation>序</translation>
    </message>
    <message>
      <source>Ref</source>
      <translation>Ref</translation>
    </message>
    <message>
      <source>Projection</source>
      <translation>投影</translation>
    </message>
    <message>
      <source>Label</source>
      <translation>标题</translation>
    </message>
    <message>
      <source>Note</source>
      <translation>说明</translation>
    </message>
    <message>
      <source>Bag</source>
      <translation>袋</translation>
    </message>
    <message>
      <source>Tokens</source>
      <translation>Token</translation>
    </message>
    <message>
      <source>Order: the position in the slot (0 = sent first)</source>
      <translation>序：在槽中的位置（0 = 最先发送）</translation>
    </message>
    <message>
      <source>The blackboard tag read, worker.persona (the slot's persona text) or 对话.历史 (the dialogue history)</source>
      <translation>读取的黑板标签、worker.persona（槽位人设文本）或 对话.历史（对话历史）</translation>
    </message>
    <message>
      <source>fixed: verbatim (history: a placeholder) · full: unchanged · summary: a fragment's brief or the first 800 characters · fields: a fragment's brief and field names</source>
      <translation>fixed：原样注入（历史：占位句）· full：不变 · summary：片段的 brief 或前 800 字 · fields：片段的 brief 与字段名</translation>
    </message>
    <message>
      <source>Heading written before the text (default: ## ref（note）)</source>
      <translation>写在正文前的标题（默认：## ref（说明））</translation>
    </message>
    <message>
      <source>Free note, shown in the default heading</source>
      <translation>自由说明，显示在默认标题中</translation>
    </message>
    <message>
      <source>Where the last assembly put this row's text</source>
      <translation>上次拼装把这一行的正文放进了哪个袋</translation>
    </message>
    <message>
      <source>Exact tokens of this row's text in the last assembly</source>
      <translation>上次拼装中这一行正文的精确 token 数</translation>
    </message>
    <message>
      <source>No blackboard tag matches {ref}: this row sends nothing</source>
      <translation>没有黑板标签匹配 {ref}：这一行不发送任何内容</translation>
    </message>
    <message>
      <source>Move {ref}</source>
      <translation>移动 {ref}</translation>
    </message>
    <message>
      <source>Add {ref}</source>
      <translation>添加 {ref}</translation>
    </message>
    <message>
      <source>Remove {ref}</source>
      <translation>删除 {ref}</translation>
    </message>
    <message>
      <source>Set projection of {ref} to {projection}</source>
      <translation>把 {ref} 的投影设为 {projection}</translation>
    </message>
  </context>
  <context>
    <name>OrderPreview</name>
    <message>
      <source>Preview any turn: turn k is assembled with the history's first k blocks</source>
      <translation>预览任意一轮：第 k 轮用历史的前 k 段拼装</translation>
    </message>
    <message>
      <source>turn </source>
      <translation>第 </translation>
    </message>
    <message>
      <source>Latest</source>
      <translation>最新</translation>
    </message>
    <message>
      <source>Show the latest turn (the whole history)</source>
      <translation>显示最新一轮（完整历史）</translation>
    </message>
    <message>
      <source>Messages</source>
      <translation>消息</translation>
    </message>
    <message>
      <source>Bags</source>
      <translation>袋</translation>
    </message>
    <message>
      <source>Segments</source>
      <translation>段</translation>
    </message>
    <message>
      <source>Warnings</source>
      <translation>警告</translation>
    </message>
    <message>
      <source>system</source>
      <translation>系统</translation>
    </message>
    <message>
      <source>user</source>
      <translation>用户</translation>
    </message>
    <message>
      <source>assistant</source>
      <translation>助手</translation>
    </message>
    <message>
      <source>Turn {turn}: prefix kept; {shared:,} of {total:,} tokens repeat the previous turn ({share})</source>
      <translation>第 {turn} 轮：前缀保持；{total:,} 个 token 中有 {shared:,} 个与上一轮相同（{share}）</translation>
    </message>
    <message>
      <source>#</source>
      <translation>序</translation>
    </message>
    <message>
      <source>Role</source>
      <translation>角色</translation>
    </message>
    <message>
      <source>Source</source>
      <translation>来源</translation>
    </message>
    <message>
      <source>Bag</source>
      <translation>袋</translation>
    </message>
    <message>
      <source>Tokens</source>
      <translation>Token</translation>
    </message>
    <message>
      <source>Content</source>
      <translation>内容</translation>
    </message>
    <message>
      <source>Bag / entry</source>
      <translation>袋 / 条目</translation>
    </message>
    <message>
      <source>Ref</source>
      <translation>Ref</translation>
    </message>
    <message>
      <source>Projection</source>
      <translation>投影</translation>
    </message>
    <message>
      <source>Share</source>
      <translation>占比</translation>
    </message>
    <message>
      <source>Notes</source>
      <translation>备注</translation>
    </message>
    <message>
      <source>Turn {turn}: not simulated yet</source>
      <translation>第 {turn} 轮：尚未模拟</translation>
    </message>
    <message>
      <source>Turn {turn}: the cached prefix breaks at message {index} ({source}).
{reason}
{shared:,} of {total:,} tokens repeat the previous turn ({share}).</source>
      <translation>第 {turn} 轮：缓存前缀在第 {index} 条消息（{source}）处断开。
{reason}
{total:,} 个 token 中有 {shared:,} 个与上一轮相同（{share}）。</translation>
    </message>
    <message>
      <source>Turn {turn}: {total:,} tokens; nothing cached yet</source>
      <translation>第 {turn} 轮：{total:,} 个 token；尚无缓存</translation>
    </message>
    <message>
      <source> of {count}</source>
      <translation> 轮，共 {count}</translation>
    </message>
    <message>
      <source>message {n} · {role} · {source} · {tokens:,} tokens</source>
      <translation>消息 {n} · {role} · {source} · {tokens:,} token</translation>
    </message>
    <message>
      <source>Simulating the prefix cache… {done} of {total} turns</source>
      <translation>正在模拟前缀缓存… {done} / {total} 轮</translation>
    </message>
    <message>
      <source>The cached prefix breaks at {n} of {turns} turns: {list}. {share} of all tokens repeat the previous turn.</source>
      <translation>缓存前缀在 {turns} 轮中断开 {n} 次：第 {list} 轮。全部 token 中 {share} 与上一轮相同。</translation>
    </message>
    <message>
      <source>The cached prefix never breaks; {share} of all tokens repeat the previous turn.</source>
      <translation>缓存前缀从不断开；全部 token 中 {share} 与上一轮相同。</translation>
    </message>
    <message>
      <source>Warnings ({n})</source>
      <translation>警告（{n}）</translation>
    </message>
    <message>
      <source>(before this change: {n} breaks, {share} repeated)</source>
      <translation>（改动前：断开 {n} 次，{share} 相同）</translation>
    </message>
    <message>
      <source>history: blocks {first}–{last} of {total} kept (n = {n})</source>
      <translation>历史：保留 {total} 段中的第 {first}–{last} 段（n = {n}）</translation>
    </message>
  </context>
  <context>
    <name>BudgetBar</name>
    <message>
      <source>the input alone is over the context window</source>
      <translation>仅输入就超出了上下文窗口</translation>
    </message>
    <message>
      <source>reported by the provider</source>
      <translation>服务商报告</translation>
    </message>
    <message>
      <source>counted here</source>
      <translation>本程序计数</translation>
    </message>
    <message>
      <source>Covel's estimate</source>
      <translation>Covel 的估算</translation>
    </message>
    <message>
      <source>the input is over the model's input limit of {n:,}</source>
      <translation>输入超出了模型 {n:,} 的输入上限</translation>
    </message>
    <message>
      <source>{field} is over the model's output limit of {n:,}</source>
      <translation>{field} 超出了模型 {n:,} 的输出上限</translation>
    </message>
    <message>
      <source>input and {field} together are over the context window</source>
      <translation>输入与 {field} 合计超出了上下文窗口</translation>
    </message>
    <message>
      <source>The rules table has no context window for this model, so no budget is shown.</source>
      <translation>规则表中没有该模型的上下文窗口，因此不显示预算。</translation>
    </message>
    <message>
      <source>(no output limit in the request)</source>
      <translation>（请求中没有输出上限）</translation>
    </message>
    <message>
      <source>This model's output does not count against its input window.</source>
      <translation>该模型的输出不占用其输入窗口。</translation>
    </message>
    <message>
      <source>Context: {input:,} input</source>
      <translation>上下文：输入 {input:,}</translation>
    </message>
    <message>
      <source>of {window:,} ({share:.1%})</source>
      <translation>/ {window:,}（{share:.1%}）</translation>
    </message>
    <message>
      <source>Input: {n:,} tokens, {how}</source>
      <translation>输入：{n:,} 个 token，{how}</translation>
    </message>
    <message>
      <source>Context window: {n:,} tokens; output limit {out:,}</source>
      <translation>上下文窗口：{n:,} 个 token；输出上限 {out:,}</translation>
    </message>
    <message>
      <source>Rule {pattern}: {source}</source>
      <translation>规则 {pattern}：{source}</translation>
    </message>
    <message>
      <source>Context window: not known for {model} (add it to the rules table's [[model_limits]])</source>
      <translation>上下文窗口：{model} 未知（请在规则表的 [[model_limits]] 中添加）</translation>
    </message>
    <message>
      <source>+ {out:,} {field}</source>
      <translation>+ {out:,} {field}</translation>
    </message>
    <message>
      <source>Input limit: {n:,} tokens</source>
      <translation>输入上限：{n:,} 个 token</translation>
    </message>
  </context>
  <context>
    <name>CompareView</name>
    <message>
      <source>equal</source>
      <translation>相同</translation>
    </message>
    <message>
      <source>changed</source>
      <translation>已修改</translation>
    </message>
    <message>
      <source>moved</source>
      <translation>已移动</translation>
    </message>
    <message>
      <source>added</source>
      <translation>新增</translation>
    </message>
    <message>
      <source>removed</source>
      <translation>移除</translation>
    </message>
    <message>
      <source>Left: {left}
Right: {right}
Click a name to copy its id.</source>
      <translation>左：{left}
右：{right}
点击名称可复制其 ID。</translation>
    </message>
    <message>
      <source>Section</source>
      <translation>区域</translation>
    </message>
    <message>
      <source>Part</source>
      <translation>部分</translation>
    </message>
    <message>
      <source>Status</source>
      <translation>状态</translation>
    </message>
    <message>
      <source>Left tokens</source>
      <translation>左侧 token</translation>
    </message>
    <message>
      <source>Right tokens</source>
      <translation>右侧 token</translation>
    </message>
    <message>
      <source>First difference</source>
      <translation>首个差异</translation>
    </message>
    <message>
      <source>cache breakpoint moved</source>
      <translation>缓存断点已移动</translation>
    </message>
    <message>
      <source>first difference</source>
      <translation>首个差异</translation>
    </message>
    <message>
      <source>&lt;b&gt;Left&lt;/b&gt; {left} · &lt;b&gt;Right&lt;/b&gt; {right}</source>
      <translation>&lt;b&gt;左&lt;/b&gt; {left} · &lt;b&gt;右&lt;/b&gt; {right}</translation>
    </message>
    <message>
      <source>{equal} equal, {changed} changed, {moved} moved, {added} added, {removed} removed parts</source>
      <translation>{equal} 个相同、{changed} 个修改、{moved} 个移动、{added} 个新增、{removed} 个移除的部分</translation>
    </message>
    <message>
      <source>The two requests are identical part by part.</source>
      <translation>两个请求逐部分完全相同。</translation>
    </message>
    <message>
      <source>The provider reads both requests the same; only cache breakpoints differ.</source>
      <translation>服务商读到的两个请求内容相同；只有缓存断点不同。</translation>
    </message>
    <message>
      <source>Left: the request ended before this point</source>
      <translation>左侧：请求在此处之前已结束</translation>
    </message>
    <message>
      <source>Right: the request ended before this point</source>
      <translation>右侧：请求在此处之前已结束</translation>
    </message>
    <message>
      <source>char {n}</source>
      <translation>第 {n} 个字符</translation>
    </message>
    <message>
      <source>First difference: &lt;b&gt;{path}&lt;/b&gt; at character {offset}</source>
      <translation>首个差异：&lt;b&gt;{path}&lt;/b&gt;，字符偏移 {offset}</translation>
    </message>
    <message>
      <source>Left: {path}</source>
      <translation>左：{path}</translation>
    </message>
    <message>
      <source>Right: {path}</source>
      <translation>右：{path}</translation>
    </message>
    <message>
      <source>(absent)</source>
      <translation>（不存在）</translation>
    </message>
  </context>
  <context>
    <name>ConversationView</name>
    <message>
      <source>tokens</source>
      <translation>token</translation>
    </message>
    <message>
      <source>estimated tokens</source>
      <translation>估算 token</translation>
    </message>
    <message>
      <source>Copy</source>
      <translation>复制</translation>
    </message>
    <message>
      <source>Copy this message's text (a cache breakpoint as Covel's sentinel)</source>
      <translation>复制这条消息的文本（缓存断点以 Covel 的哨兵标记表示）</translation>
    </message>
    <message>
      <source>Find in the conversation (Esc: close)</source>
      <translation>在对话中查找（Esc：关闭）</translation>
    </message>
    <message>
      <source>Collapse this part</source>
      <translation>折叠此部分</translation>
    </message>
    <message>
      <source>The provider caches the request up to this point</source>
      <translation>服务商会缓存请求中到此为止的内容</translation>
    </message>
    <message>
      <source>No match</source>
      <translation>无匹配</translation>
    </message>
    <message>
      <source>Show the whole part ({n:,} characters)</source>
      <translation>显示整个部分（{n:,} 个字符）</translation>
    </message>
    <message>
      <source>… {n:,} characters more, {hits} matches inside: open ▸ to read</source>
      <translation>… 还有 {n:,} 个字符，其中有 {hits} 处匹配：展开 ▸ 阅读</translation>
    </message>
    <message>
      <source>… {n:,} characters more: open ▸ to read</source>
      <translation>… 还有 {n:,} 个字符：展开 ▸ 阅读</translation>
    </message>
    <message>
      <source>{n:,} matches</source>
      <translation>{n:,} 处匹配</translation>
    </message>
  </context>
  <context>
    <name>CoreTexts</name>
    <message>
      <source>tools</source>
      <translation>工具</translation>
    </message>
    <message>
      <source>system</source>
      <translation>系统</translation>
    </message>
    <message>
      <source>messages</source>
      <translation>消息</translation>
    </message>
    <message>
      <source> and </source>
      <translation>和</translation>
    </message>
    <message>
      <source>context</source>
      <translation>上下文</translation>
    </message>
    <message>
      <source>input</source>
      <translation>输入</translation>
    </message>
    <message>
      <source>none</source>
      <translation>无</translation>
    </message>
    <message>
      <source>{n} min</source>
      <translation>{n} 分钟</translation>
    </message>
    <message>
      <source>{n} s</source>
      <translation>{n} 秒</translation>
    </message>
    <message>
      <source>, </source>
      <translation>、</translation>
    </message>
    <message>
      <source>top level</source>
      <translation>顶层</translation>
    </message>
    <message>
      <source>; </source>
      <translation>；</translation>
    </message>
    <message>
      <source>{old} → {new}: caches are per model</source>
      <translation>{old} → {new}：缓存按模型分开</translation>
    </message>
    <message>
      <source>{gap} s since this runtime's last request, over the {ttl} s TTL ({source})</source>
      <translation>距该运行时上一个请求 {gap} 秒，超过 {ttl} 秒的 TTL（{source}）</translation>
    </message>
    <message>
      <source>{fields} changed: the {levels} cache is keyed by it, so nothing from there on is read ({source})</source>
      <translation>{fields} 已改变：{levels}缓存以它为键，因此从那里起的内容都不会被读取（{source}）</translation>
    </message>
    <message>
      <source>{fields} changed: the {levels} caches are keyed by it, so nothing from there on is read ({source})</source>
      <translation>{fields} 已改变：{levels}缓存以它为键，因此从那里起的内容都不会被读取（{source}）</translation>
    </message>
    <message>
      <source>the tool definitions changed: nothing after them can be read from the cache</source>
      <translation>工具定义已改变：其后的内容都无法从缓存读取</translation>
    </message>
    <message>
      <source>the tool choice or output schema changed: nothing after them can be read from the cache</source>
      <translation>工具选择或输出结构已改变：其后的内容都无法从缓存读取</translation>
    </message>
    <message>
      <source>the system prompt gained or lost a part here (a leading system message joined it or left it): the history after it is re-sent uncached</source>
      <translation>系统提示词在此处多了或少了一部分（有一条开头的系统消息并入或移出）：其后的历史会以未缓存方式重新发送</translation>
    </message>
    <message>
      <source>the system prompt changed: the history after it is re-sent uncached</source>
      <translation>系统提示词已改变：其后的历史会以未缓存方式重新发送</translation>
    </message>
    <message>
      <source>history compacted: summaries replaced the oldest messages</source>
      <translation>历史已压缩：摘要替换了最早的消息</translation>
    </message>
    <message>
      <source>history pruned to stay within the token budget</source>
      <translation>历史已裁剪，以保持在 token 预算之内</translation>
    </message>
    <message>
      <source>a depth insertion inside the history moved</source>
      <translation>历史中的一个深度插入移动了位置</translation>
    </message>
    <message>
      <source>the history window slid: its oldest message changed</source>
      <translation>历史窗口滑动了：最早的那条消息变了</translation>
    </message>
    <message>
      <source>a history message differs from the previous request's</source>
      <translation>有一条历史消息与上一个请求中的不同</translation>
    </message>
    <message>
      <source>the prefix runs to the turn context, but the request has no cache_control breakpoint</source>
      <translation>前缀一直延伸到回合上下文，但该请求没有 cache_control 断点</translation>
    </message>
    <message>
      <source>the prefix runs to the turn context, but no breakpoint of the earlier request ends within it and the lookback: there was nothing to read</source>
      <translation>前缀一直延伸到回合上下文，但上一个请求没有任何断点落在前缀及回溯范围之内：没有可读取的缓存</translation>
    </message>
    <message>
      <source>{shared} shared tokens; {source} caches no prefix under {minimum} tokens</source>
      <translation>共享 {shared} 个 token；{source} 不缓存短于 {minimum} 个 token 的前缀</translation>
    </message>
    <message>
      <source>{predicted} tokens predicted cached but none reported; {cause}</source>
      <translation>预测缓存 {predicted} 个 token，但报告为零；{cause}</translation>
    </message>
    <message>
      <source>the prefix runs to the turn context or later</source>
      <translation>前缀延伸到回合上下文或更远</translation>
    </message>
    <message>
      <source>cache_control moved earlier: the last breakpoint's prefix is {after} tokens, {before} in the previous request, so at most {after} of the {shared} shared tokens can be read</source>
      <translation>cache_control 前移了：最后一个断点的前缀为 {after} 个 token，上一个请求中为 {before} 个，因此共享的 {shared} 个 token 中最多只能读取 {after} 个</translation>
    </message>
    <message>
      <source>the first request of this runtime in the session</source>
      <translation>该运行时在本会话中的第一个请求</translation>
    </message>
    <message>
      <source>the request compared with failed, so the prediction uses the last one that succeeded</source>
      <translation>用于比较的请求失败了，因此预测改用最近一个成功的请求</translation>
    </message>
    <message>
      <source>{rate} requests on its route (model, cache key, first {prefix} tokens) in the minute up to it, over the ~{limit} a minute one machine takes ({source}): some overflow to machines without the cache</source>
      <translation>截至此请求的一分钟内，其路由（模型、缓存键、前 {prefix} 个 token）上有 {rate} 个请求，超过单台机器每分钟约 {limit} 个的承载量（{source}）：部分请求会溢出到没有该缓存的机器</translation>
    </message>
    <message>
      <source>no visible reason (eviction, routing overflow, or a relay that drops caching)</source>
      <translation>没有可见原因（缓存被逐出、路由溢出，或中转服务丢弃了缓存设置）</translation>
    </message>
    <message>
      <source>the provider reports the miss: {reason}, {missed} input tokens missed; we found no cause of our own (our reading: {detail})</source>
      <translation>服务商报告了未命中：{reason}，{missed} 个输入 token 未命中；我们自己没有找到原因（我们的判断：{detail}）</translation>
    </message>
    <message>
      <source>the provider reports the miss: {reason}; we found no cause of our own (our reading: {detail})</source>
      <translation>服务商报告了未命中：{reason}；我们自己没有找到原因（我们的判断：{detail}）</translation>
    </message>
    <message>
      <source>the provider disagrees: it reports {reason}, {missed} input tokens missed</source>
      <translation>服务商的判断不同：它报告 {reason}，{missed} 个输入 token 未命中</translation>
    </message>
    <message>
      <source>the provider disagrees: it reports {reason}</source>
      <translation>服务商的判断不同：它报告 {reason}</translation>
    </message>
    <message>
      <source>the provider agrees: {reason}, {missed} input tokens missed</source>
      <translation>服务商的判断一致：{reason}，{missed} 个输入 token 未命中</translation>
    </message>
    <message>
      <source>the provider agrees: {reason}</source>
      <translation>服务商的判断一致：{reason}</translation>
    </message>
    <message>
      <source>uncertain: {why}</source>
      <translation>不确定：{why}</translation>
    </message>
    <message>
      <source>uncertain, so not called unexplained: {why}; {predicted} tokens predicted cached, but a true count on the other side of the threshold would cache none (our reading: {detail})</source>
      <translation>不确定，因此不判为原因不明：{why}；预测缓存 {predicted} 个 token，但若真实计数落在阈值另一侧则不会缓存任何内容（我们的判断：{detail}）</translation>
    </message>
    <message>
      <source>{count} tokens lie within the ±{error} error band of the proxy tokenizer ({tokenizer}) of the {minimum}-token minimum</source>
      <translation>{count} 个 token 落在代理分词器（{tokenizer}）±{error} 的误差范围内，接近 {minimum} 个 token 的最小长度</translation>
    </message>
    <message>
      <source>{count} tokens lie within the ±{error} error band of the proxy tokenizer ({tokenizer}) of the first {step}-token step</source>
      <translation>{count} 个 token 落在代理分词器（{tokenizer}）±{error} 的误差范围内，接近第一个 {step} token 的步长</translation>
    </message>
    <message>
      <source>the {gap} s gap lies within the {grace} s grace band after the {ttl} s TTL, where {family} entries have been seen to survive</source>
      <translation>{gap} 秒的间隔落在 {ttl} 秒 TTL 之后 {grace} 秒的宽限范围内，曾观察到 {family} 的缓存条目在此范围内仍然存活</translation>
    </message>
    <message>
      <source>The system prompt changes between turns at {part} in {count} of {turns} turns (a {{{{ player.character }}}}-style value inside it?): everything after it, the whole history included, is re-sent uncached every turn. Move turn-volatile values to the turn context.</source>
      <translation>系统提示词在 {turns} 个回合中有 {count} 个回合于「{part}」处发生变化（其中含有 {{{{ player.character }}}} 之类的值？）：其后的全部内容，包括整个历史，每回合都会以未缓存方式重新发送。请把每回合变化的值移到回合上下文中。</translation>
    </message>
    <message>
      <source>{count} requests carry more than {limit} cache_control breakpoints (up to {most}); Anthropic accepts at most that many, so the prediction honours only the first ones.</source>
      <translation>{count} 个请求带有超过 {limit} 个 cache_control 断点（最多 {most} 个）；Anthropic 最多只接受这么多，因此预测只计入前面的断点。</translation>
    </message>
    <message>
      <source>The cache_control breakpoint on the {where} is written {count} times and never read: the content before it changes every turn, so each write pays the write premium for nothing.</source>
      <translation>「{where}」上的 cache_control 断点被写入 {count} 次却从未被读取：它之前的内容每回合都在变化，所以每次写入支付的写入溢价都白费了。</translation>
    </message>
    <message>
      <source>The turn context (data blocks such as &lt;runtime-inputs&gt;) is the last message of the request; Covel keeps it before the player message because small models copy data-block syntax into tool calls when it comes last.</source>
      <translation>回合上下文（&lt;runtime-inputs&gt; 等数据块）是请求的最后一条消息；Covel 会把它放在玩家消息之前，因为数据块排在最后时，小模型会把数据块语法抄进工具调用里。</translation>
    </message>
    <message>
      <source>The oldest history message changes in {count} of {turns} turns: the history window slides every turn, so no turn can reuse the previous turn's history from the cache. Trim in larger steps (Covel prunes in 30 % steps) or summarise instead.</source>
      <translation>在 {turns} 个回合中有 {count} 个回合最早的历史消息发生变化：历史窗口每回合都在滑动，因此没有哪个回合能从缓存中复用上一回合的历史。请以更大的步长裁剪（Covel 每次裁剪 30 %），或改用摘要。</translation>
    </message>
    <message>
      <source>A depth insertion inside the history (a lorebook or extension segment at depth n) moves in {count} of {turns} turns: the history is re-sent uncached from that point every turn. Place it in the turn context or at depth 0.</source>
      <translation>历史中的一个深度插入（位于深度 n 的世界书或扩展片段）在 {turns} 个回合中有 {count} 个回合移动了位置：每回合从该处起的历史都会以未缓存方式重新发送。请把它放到回合上下文中或深度 0 处。</translation>
    </message>
    <message>
      <source>The input of {requests} priced requests cost {usd} USD: {classes}.</source>
      <translation>{requests} 个已计价请求的输入花费 {usd} 美元：{classes}。</translation>
    </message>
    <message>
      <source>The cache_control breakpoint on the {where} closes a prefix of at most {longest} tokens, under the {minimum} the model caches, in {count} of {total} requests: nothing is cached there, and it spends one of the {slots} breakpoint slots. Drop it, or move it to the end of a longer stable prefix (the end of the system prompt).</source>
      <translation>在 {total} 个请求中有 {count} 个，「{where}」上的 cache_control 断点所封闭的前缀最多 {longest} 个 token，低于该模型缓存所需的 {minimum} 个：那里什么也不会被缓存，却占用了 {slots} 个断点名额中的一个。请删除它，或把它移到更长的稳定前缀末尾（系统提示词末尾）。</translation>
    </message>
    <message>
      <source>None of this runtime's cache_control breakpoints can cache: the longest prefix one closes is {longest} tokens, under the {minimum} the model caches, in all {total} requests, so the breakpoints it marks ({places}) cache nothing and each spends one of the {slots} slots. Drop them, or cache on a model with a lower minimum.</source>
      <translation>该运行时的 cache_control 断点都无法缓存：在全部 {total} 个请求中，断点封闭的最长前缀为 {longest} 个 token，低于该模型缓存所需的 {minimum} 个，因此它标记的断点（{places}）什么也不缓存，且各占用 {slots} 个名额中的一个。请删除它们，或改用最小长度更低的模型来缓存。</translation>
    </message>
    <message>
      <source>{count} of {total} requests wrote {tokens} tokens to the cache that the next request did not read: their write premium ({usd} USD) bought nothing. The prefix they closed changes before it is reused, or the next request comes after the TTL.</source>
      <translation>{total} 个请求中有 {count} 个向缓存写入了 {tokens} 个 token，而下一个请求并未读取：它们的写入溢价（{usd} 美元）白费了。它们封闭的前缀在被复用前就变了，或者下一个请求在 TTL 之后才到来。</translation>
    </message>
    <message>
      <source>{count} of {gaps} gaps between requests are longer than the {short} TTL but within {long}: with ttl "{option}" on the breakpoints the cached part would cost {saving} USD less ({cost} instead of {was}), the dearer writes included. Keep-alive requests every {short} would pay only for gaps up to about {keep}.</source>
      <translation>请求之间的 {gaps} 个间隔中有 {count} 个长于 {short} 的 TTL 但在 {long} 之内：若在断点上设置 ttl "{option}"，缓存部分的费用将少 {saving} 美元（{cost} 而非 {was}），已计入更贵的写入。每 {short} 发送一次保活请求，只对不超过约 {keep} 的间隔划算。</translation>
    </message>
    <message>
      <source>{count} of {gaps} gaps between requests are longer than the {short} TTL but within {long}: with ttl "{option}" on the breakpoints the cached part would cost {saving} USD less ({cost} instead of {was}), the dearer writes included.</source>
      <translation>请求之间的 {gaps} 个间隔中有 {count} 个长于 {short} 的 TTL 但在 {long} 之内：若在断点上设置 ttl "{option}"，缓存部分的费用将少 {saving} 美元（{cost} 而非 {was}），已计入更贵的写入。</translation>
    </message>
    <message>
      <source>llm.responded {id} matches no llm.calling of its runtime</source>
      <translation>llm.responded {id} 与其运行时的任何 llm.calling 都不匹配</translation>
    </message>
    <message>
      <source>turn_results.runtime_results: {error}</source>
      <translation>turn_results.runtime_results：{error}</translation>
    </message>
    <message>
      <source>context.compacted {id}: no model call follows it</source>
      <translation>context.compacted {id}：其后没有模型调用</translation>
    </message>
    <message>
      <source>the call recorded no kernel messages: nothing can be matched</source>
      <translation>该调用没有记录内核消息：无法匹配任何内容</translation>
    </message>
    <message>
      <source>{count} &lt;compacted_history&gt; envelopes match no stored summary text (rewritten by a later merge, or deleted)</source>
      <translation>{count} 个 &lt;compacted_history&gt; 封装与任何已存储的摘要文本都不匹配（已被之后的合并改写，或已删除）</translation>
    </message>
    <message>
      <source>{variable} may be used in {zones}, not in the {zone} zone (ChatLuna throws VariableZoneError)</source>
      <translation>{variable} 只能用在{zones}区，不能用在{zone}区（ChatLuna 会抛出 VariableZoneError）</translation>
    </message>
    <message>
      <source>{variable} is mutable, so it cannot enter the system zone: it would change the cached prefix on every request (ChatLuna throws MutableVariableError); move it to a context block</source>
      <translation>{variable} 是可变变量，不能进入系统区：它会让每次请求的缓存前缀都发生变化（ChatLuna 会抛出 MutableVariableError）；请把它移到上下文块</translation>
    </message>
    <message>
      <source>{variable} is not declared mutable, but its sample values change between turns: the pinned system zone keeps the first value and each change adds an "environment updated" note; move it to a context block if it changes often</source>
      <translation>{variable} 没有声明为可变，但它的示例值在回合之间会变化：固定的系统区保留第一个值，每次变化都会追加一条“环境已更新”说明；如果它经常变化，请把它移到上下文块</translation>
    </message>
    <message>
      <source>{{prompt}} is the user's input and only exists in the input zone, not the {zone} zone</source>
      <translation>{{prompt}} 是用户的输入，只存在于输入区，不在{zone}区</translation>
    </message>
    <message>
      <source>an input template must contain {{prompt}} (the user's input); without it the input is dropped</source>
      <translation>输入模板必须包含 {{prompt}}（用户的输入）；没有它，输入会被丢弃</translation>
    </message>
    <message>
      <source>this input block is not a template, so {{prompt}} is literal text and the user's input is dropped; set template: true</source>
      <translation>这个输入块不是模板，所以 {{prompt}} 只是字面文本，用户的输入会被丢弃；请设置 template: true</translation>
    </message>
    <message>
      <source>an input block must contain {{prompt}} (the user's input) and be a template</source>
      <translation>输入块必须包含 {{prompt}}（用户的输入），并且必须是模板</translation>
    </message>
    <message>
      <source>{tag} reads a variable, but this block is not a template, so it is sent as literal braces; set template: true</source>
      <translation>{tag} 读取了一个变量，但这个块不是模板，所以它会连同花括号原样发送；请设置 template: true</translation>
    </message>
    <message>
      <source>{tag} names a variable, but this block is not a template, so it is sent as literal braces; set template: true</source>
      <translation>{tag} 指向一个变量，但这个块不是模板，所以它会连同花括号原样发送；请设置 template: true</translation>
    </message>
    <message>
      <source>{name} is not a variable, so it is passed as the text "{text}"; quote it to say so</source>
      <translation>{name} 不是变量，所以作为文本“{text}”传入；如果本意如此，请给它加上引号</translation>
    </message>
    <message>
      <source>unknown variable {name}</source>
      <translation>未知变量 {name}</translation>
    </message>
    <message>
      <source>unknown variable {name}; did you mean {suggestion}?</source>
      <translation>未知变量 {name}；是不是想写 {suggestion}？</translation>
    </message>
    <message>
      <source>{variable} takes no arguments, given {given}</source>
      <translation>{variable} 不接受参数，却给了 {given} 个</translation>
    </message>
    <message>
      <source>{variable} takes 1 argument ({names}), given {given}</source>
      <translation>{variable} 接受 1 个参数（{names}），却给了 {given} 个</translation>
    </message>
    <message>
      <source>{variable} takes {count} arguments ({names}), given {given}</source>
      <translation>{variable} 接受 {count} 个参数（{names}），却给了 {given} 个</translation>
    </message>
    <message>
      <source>{variable} takes {low} to {high} arguments ({names}), given {given}</source>
      <translation>{variable} 接受 {low} 到 {high} 个参数（{names}），却给了 {given} 个</translation>
    </message>
    <message>
      <source>the loop name {name} hides the variable of the same name inside this loop</source>
      <translation>循环名 {name} 在这个循环内遮住了同名变量</translation>
    </message>
    <message>
      <source>{{while}} on the constant {value} is always true: it runs until the loop limit ({limit})</source>
      <translation>以常量 {value} 为条件的 {{while}} 永远为真：它会一直运行到循环上限（{limit}）</translation>
    </message>
    <message>
      <source>block id {block} is already used by block #{number}; registering it again throws, so this block is left out</source>
      <translation>块 ID {block} 已被第 {number} 个块使用；再次注册会抛出异常，所以这个块被略去</translation>
    </message>
    <message>
      <source>system order {order} is outside {low}..{high}</source>
      <translation>系统区顺序 {order} 超出了 {low}..{high}</translation>
    </message>
    <message>
      <source>order {order} is outside the {band_name} band ({band})</source>
      <translation>顺序 {order} 不在 {band_name} 区段（{band}）内</translation>
    </message>
    <message>
      <source>complete is only allowed on system blocks; this block is left out</source>
      <translation>complete 只允许用在系统块上；这个块被略去</translation>
    </message>
    <message>
      <source>complete only means something in the system zone; it is ignored on this {zone} block</source>
      <translation>complete 只在系统区有意义；在这个{zone}块上它被忽略</translation>
    </message>
    <message>
      <source>order bands are a system-zone rule; purpose {purpose} means nothing in the {zone} zone</source>
      <translation>顺序区段是系统区的规则；用途 {purpose} 在{zone}区没有意义</translation>
    </message>
    <message>
      <source>{zone} order {order} is also used by {block}; registration order decides which comes first, and a change in plugin load order swaps them silently</source>
      <translation>{zone}区顺序 {order} 也被 {block} 使用；谁在前由注册顺序决定，插件加载顺序一变，它们就会悄悄对调</translation>
    </message>
    <message>
      <source>{count} complete system blocks ({ids}); at most one may take over the system zone, so the assembly fails</source>
      <translation>有 {count} 个 complete 系统块（{ids}）；最多只能有一个接管系统区，所以组装失败</translation>
    </message>
    <message>
      <source>{count} complete system blocks ({ids}); only one may take over the system zone, so the assembly fails</source>
      <translation>有 {count} 个 complete 系统块（{ids}）；只能有一个接管系统区，所以组装失败</translation>
    </message>
    <message>
      <source>variable {name} is declared but no template uses it</source>
      <translation>变量 {name} 已声明，但没有模板使用它</translation>
    </message>
    <message>
      <source>environment contributor {name} failed on turn {turn} ({error}); skipped</source>
      <translation>环境提供者 {name} 在第 {turn} 回合失败（{error}）；已跳过</translation>
    </message>
    <message>
      <source>replaced by the complete block {block}</source>
      <translation>被 complete 块 {block} 取代</translation>
    </message>
    <message>
      <source>duplicate id: registering it again throws</source>
      <translation>ID 重复：再次注册会抛出异常</translation>
    </message>
    <message>
      <source>input mode {mode} applies one block only</source>
      <translation>输入模式 {mode} 只使用一个块</translation>
    </message>
    <message>
      <source>{path} is not a Covel template variable, so it renders as nothing</source>
      <translation>{path} 不是 Covel 模板变量，所以渲染为空</translation>
    </message>
    <message>
      <source>{path} is not a Covel template variable, so it renders as nothing; did you mean {suggestion}?</source>
      <translation>{path} 不是 Covel 模板变量，所以渲染为空；是不是想写 {suggestion}？</translation>
    </message>
    <message>
      <source>{path} changes between turns, and the runtime body is part of the system prompt: every change rewrites the system prompt and the prefix cache stops there; {detail}</source>
      <translation>{path} 会在回合之间变化，而运行时主体是系统提示词的一部分：每次变化都会改写系统提示词，前缀缓存就在那里中断；{detail}</translation>
    </message>
    <message>
      <source>the player's message this turn</source>
      <translation>玩家本回合的消息</translation>
    </message>
    <message>
      <source>the last submitted form, as pretty JSON text (empty when none)</source>
      <translation>最近一次提交的表单，格式化的 JSON 文本（没有时为空）</translation>
    </message>
    <message>
      <source>the last submitted form as an object</source>
      <translation>最近一次提交的表单，作为对象</translation>
    </message>
    <message>
      <source>the primary seat's current character (JSON), empty when none</source>
      <translation>主座位当前的角色（JSON），没有时为空</translation>
    </message>
    <message>
      <source>profiles of every character but the current one, one per line</source>
      <translation>除当前角色外每个角色的简介，每行一个</translation>
    </message>
    <message>
      <source>the session id</source>
      <translation>会话 ID</translation>
    </message>
    <message>
      <source>the number of the current turn</source>
      <translation>当前回合的序号</translation>
    </message>
    <message>
      <source>inputs.&lt;pluginId&gt;.&lt;runtimeId&gt;.&lt;field&gt;: this execution's outputs of earlier runtimes</source>
      <translation>inputs.&lt;pluginId&gt;.&lt;runtimeId&gt;.&lt;field&gt;：本次执行中之前各运行时的输出</translation>
    </message>
    <message>
      <source>the world's name</source>
      <translation>世界的名称</translation>
    </message>
    <message>
      <source>the world's description</source>
      <translation>世界的描述</translation>
    </message>
    <message>
      <source>the world's tags</source>
      <translation>世界的标签</translation>
    </message>
    <message>
      <source>the whole lore text, including the narrator-only part</source>
      <translation>完整的设定文本，包括仅叙述者可见的部分</translation>
    </message>
    <message>
      <source>the world's character schema (bookkeeping ids and times stripped)</source>
      <translation>世界的角色结构（已去掉用于记录的 ID 和时间）</translation>
    </message>
    <message>
      <source>the world's lorebook entries</source>
      <translation>该世界的世界书条目</translation>
    </message>
    <message>
      <source>world.dimensions.&lt;id&gt;: {{name, description?, schema, value, version}}, frozen per turn</source>
      <translation>world.dimensions.&lt;id&gt;：{{name, description?, schema, value, version}}，每回合冻结</translation>
    </message>
    <message>
      <source>userSettings.&lt;key&gt;: the plugin's settings (defaults merged with the player's)</source>
      <translation>userSettings.&lt;key&gt;：插件的设置（默认值与玩家的设置合并）</translation>
    </message>
    <message>
      <source>every {group}.* value, as one JSON object</source>
      <translation>每个 {group}.* 值，合成一个 JSON 对象</translation>
    </message>
    <message>
      <source>provide it from the plugin entry as a turn segment (prompt.segment@1 with volatility "turn"), which goes to the turn context instead of the system prompt</source>
      <translation>在插件入口中把它作为回合片段提供（prompt.segment@1，volatility 为 "turn"），这样它会进入回合上下文，而不是系统提示词</translation>
    </message>
    <message>
      <source>it is already the current user message; leave it out of the body</source>
      <translation>它已经是当前的用户消息；请不要把它放进主体</translation>
    </message>
    <message>
      <source>use characterSheetSegments(...) from @covel/plugin-handlers-utils in the plugin entry; its &lt;player-character&gt; block goes to the turn context</source>
      <translation>在插件入口中使用 @covel/plugin-handlers-utils 的 characterSheetSegments(...)；它的 &lt;player-character&gt; 块会进入回合上下文</translation>
    </message>
    <message>
      <source>use characterSheetSegments(..., {{profiles: true}}) in the plugin entry; its &lt;character-profiles&gt; block goes to the turn context</source>
      <translation>在插件入口中使用 characterSheetSegments(..., {{profiles: true}})；它的 &lt;character-profiles&gt; 块会进入回合上下文</translation>
    </message>
    <message>
      <source>declare the field in io.inputs; it is injected as data in &lt;runtime-inputs&gt; in the turn context</source>
      <translation>在 io.inputs 中声明该字段；它会作为数据注入回合上下文中的 &lt;runtime-inputs&gt;</translation>
    </message>
    <message>
      <source>let world-init's &lt;world-dimensions&gt; turn segment carry the values, or read them with world-dimension-get</source>
      <translation>让 world-init 的 &lt;world-dimensions&gt; 回合片段携带这些值，或者用 world-dimension-get 读取它们</translation>
    </message>
    <message>
      <source>name the field you need</source>
      <translation>指明你需要的字段</translation>
    </message>
    <message>
      <source>name the field you need and leave out {paths}: {detail}</source>
      <translation>指明你需要的字段，并去掉 {paths}：{detail}</translation>
    </message>
    <message>
      <source>inside &lt;{tag}&gt; the value is XML-escaped (&amp;, &lt;, &gt; become &amp;amp; &amp;lt; &amp;gt;), so it cannot close the block</source>
      <translation>在 &lt;{tag}&gt; 内，值会经过 XML 转义（&amp;、&lt;、&gt; 变成 &amp;amp; &amp;lt; &amp;gt;），所以它无法闭合这个块</translation>
    </message>
    <message>
      <source>the boolean {value}</source>
      <translation>布尔值 {value}</translation>
    </message>
    <message>
      <source>the number {value}</source>
      <translation>数字 {value}</translation>
    </message>
    <message>
      <source>the string {value}</source>
      <translation>字符串 {value}</translation>
    </message>
    <message>
      <source>a string</source>
      <translation>字符串</translation>
    </message>
    <message>
      <source>a boolean</source>
      <translation>布尔值</translation>
    </message>
    <message>
      <source>a list</source>
      <translation>列表</translation>
    </message>
    <message>
      <source>a table</source>
      <translation>表</translation>
    </message>
    <message>
      <source>a mapping</source>
      <translation>映射</translation>
    </message>
    <message>
      <source>an object</source>
      <translation>对象</translation>
    </message>
    <message>
      <source>{path}.{key} is required</source>
      <translation>{path}.{key} 为必填项</translation>
    </message>
    <message>
      <source>{path}.{key} must be a string, found {found}</source>
      <translation>{path}.{key} 必须是字符串，实际为 {found}</translation>
    </message>
    <message>
      <source>{path}.{key} must be true or false, found {found}</source>
      <translation>{path}.{key} 必须是 true 或 false，实际为 {found}</translation>
    </message>
    <message>
      <source>{path}.{key} must be true or false, found {found} (ChatLuna would not read it as false)</source>
      <translation>{path}.{key} 必须是 true 或 false，实际为 {found}（ChatLuna 不会把它读作 false）</translation>
    </message>
    <message>
      <source>{path}.{key} must be a whole number, found {found}</source>
      <translation>{path}.{key} 必须是整数，实际为 {found}</translation>
    </message>
    <message>
      <source>{path}.{key} must be {minimum} or more, found {found}</source>
      <translation>{path}.{key} 必须不小于 {minimum}，实际为 {found}</translation>
    </message>
    <message>
      <source>{path}.{key} must be a number, found {found}</source>
      <translation>{path}.{key} 必须是数字，实际为 {found}</translation>
    </message>
    <message>
      <source>{path}.{key} must be one of {choices}, found {value}</source>
      <translation>{path}.{key} 必须是 {choices} 之一，实际为 {value}</translation>
    </message>
    <message>
      <source>{origin}: the text is {length} characters; a preset may be at most {limit} bytes</source>
      <translation>{origin}：文本有 {length} 个字符；预设最多只能有 {limit} 字节</translation>
    </message>
    <message>
      <source>{origin}: values are nested more than {limit} levels deep</source>
      <translation>{origin}：值的嵌套超过 {limit} 层</translation>
    </message>
    <message>
      <source>{origin}: a ChatLuna preset is a YAML mapping with 'keywords' and 'prompts', found {found}</source>
      <translation>{origin}：ChatLuna 预设是包含 'keywords' 和 'prompts' 的 YAML 映射，实际为 {found}</translation>
    </message>
    <message>
      <source>version must be a string, found {found}</source>
      <translation>version 必须是字符串，实际为 {found}</translation>
    </message>
    <message>
      <source>keywords is required: the names a user gives to pick this preset (ChatLuna looks every preset up by them)</source>
      <translation>keywords 为必填项：用户用来选择这个预设的名称（ChatLuna 靠它们查找每个预设）</translation>
    </message>
    <message>
      <source>keywords must be a list of at least one name, found {found}</source>
      <translation>keywords 必须是至少包含一个名称的列表，实际为 {found}</translation>
    </message>
    <message>
      <source>keywords[{index}] must be a string, found {found}</source>
      <translation>keywords[{index}] 必须是字符串，实际为 {found}</translation>
    </message>
    <message>
      <source>prompts is required (a list of {{role, content}}; [] for none): ChatLuna cannot load a preset without it</source>
      <translation>prompts 为必填项（{{role, content}} 的列表；没有则写 []）：没有它，ChatLuna 无法加载预设</translation>
    </message>
    <message>
      <source>prompts must be a list of {{role, content}}, found {found}</source>
      <translation>prompts 必须是 {{role, content}} 的列表，实际为 {found}</translation>
    </message>
    <message>
      <source>{path} must be a mapping with role and content, found {found}</source>
      <translation>{path} 必须是包含 role 和 content 的映射，实际为 {found}</translation>
    </message>
    <message>
      <source>{path}.role must be one of system, user, assistant, found {found}</source>
      <translation>{path}.role 必须是 system、user、assistant 之一，实际为 {found}</translation>
    </message>
    <message>
      <source>{path}.role must be one of system, user, assistant, found {found} (ChatLuna refuses the whole preset: "Unknown role")</source>
      <translation>{path}.role 必须是 system、user、assistant 之一，实际为 {found}（ChatLuna 会拒绝整个预设："Unknown role"）</translation>
    </message>
    <message>
      <source>{path}.type {type} is none of {types}; it only labels the message (lore entries are placed by description, scenario and first_message)</source>
      <translation>{path}.type {type} 不属于 {types}；它只是给消息加标注（世界书条目按 description、scenario 和 first_message 放置）</translation>
    </message>
    <message>
      <source>{path}.content is required (ChatLuna refuses the whole preset: "Content is required")</source>
      <translation>{path}.content 为必填项（ChatLuna 会拒绝整个预设："Content is required"）</translation>
    </message>
    <message>
      <source>{path}.content must be text or a list of content parts, found {found}</source>
      <translation>{path}.content 必须是文本或内容片段列表，实际为 {found}</translation>
    </message>
    <message>
      <source>{path}.content[{index}] must be a content part such as {{type: text, text: ...}}, found {found}</source>
      <translation>{path}.content[{index}] 必须是内容片段，例如 {{type: text, text: ...}}，实际为 {found}</translation>
    </message>
    <message>
      <source>{path}.content[{index}].text must be a string, found {found}</source>
      <translation>{path}.content[{index}].text 必须是字符串，实际为 {found}</translation>
    </message>
    <message>
      <source>{path}.insertPosition {position} (ChatLuna 1.3.36 has no rule for it and inserts the entry as the second message)</source>
      <translation>{path}.insertPosition {position}（ChatLuna 1.3.36 对它没有规则，会把该条目作为第二条消息插入）</translation>
    </message>
    <message>
      <source>world_lores must be a list of lore entries (and one optional settings mapping), found {found}</source>
      <translation>world_lores 必须是世界书条目的列表（外加一个可选的设置映射），实际为 {found}</translation>
    </message>
    <message>
      <source>{path} must be a mapping, found {found}</source>
      <translation>{path} 必须是映射，实际为 {found}</translation>
    </message>
    <message>
      <source>{path} has {present} but no {missing}, so ChatLuna does not read it as an entry</source>
      <translation>{path} 有 {present} 但没有 {missing}，所以 ChatLuna 不会把它读作条目</translation>
    </message>
    <message>
      <source>{path} has {present} but no {missing}, so ChatLuna does not read it as an entry but as the settings of the lore book</source>
      <translation>{path} 有 {present} 但没有 {missing}，所以 ChatLuna 不会把它读作条目，而是读作世界书的设置</translation>
    </message>
    <message>
      <source>{path}: a second settings mapping; ChatLuna uses only the first (world_lores[{index}])</source>
      <translation>{path}：第二个设置映射；ChatLuna 只使用第一个（world_lores[{index}]）</translation>
    </message>
    <message>
      <source>{path}.insertPosition: ChatLuna 1.3.36 does not apply the settings' insertPosition to the entries; give it on each entry</source>
      <translation>{path}.insertPosition：ChatLuna 1.3.36 不会把设置中的 insertPosition 应用到各条目；请在每个条目上单独指定</translation>
    </message>
    <message>
      <source>{path}.keywords must be a keyword or a list of them, found {found}</source>
      <translation>{path}.keywords 必须是关键词或关键词列表，实际为 {found}</translation>
    </message>
    <message>
      <source>{path}.keywords[{index}] must be a string, found {found}</source>
      <translation>{path}.keywords[{index}] 必须是字符串，实际为 {found}</translation>
    </message>
    <message>
      <source>{path} must be a mapping with content, found {found}</source>
      <translation>{path} 必须是包含 content 的映射，实际为 {found}</translation>
    </message>
    <message>
      <source>knowledge must be a mapping {{knowledge, prompt}}, found {found}</source>
      <translation>knowledge 必须是映射 {{knowledge, prompt}}，实际为 {found}</translation>
    </message>
    <message>
      <source>knowledge.knowledge must be a knowledge base name or a list of them, found {found}</source>
      <translation>knowledge.knowledge 必须是知识库名称或知识库名称列表，实际为 {found}</translation>
    </message>
    <message>
      <source>config must be a mapping, found {found}</source>
      <translation>config 必须是映射，实际为 {found}</translation>
    </message>
    <message>
      <source>config.postHandler must be a mapping {{prefix, postfix, variables, censor}}, found {found}</source>
      <translation>config.postHandler 必须是映射 {{prefix, postfix, variables, censor}}，实际为 {found}</translation>
    </message>
    <message>
      <source>the preset cannot be written back as YAML that reads the same; nothing was saved</source>
      <translation>无法把这个预设写回为读取结果相同的 YAML；未保存任何内容</translation>
    </message>
    <message>
      <source>a '{{' is not closed</source>
      <translation>有一个 '{{' 没有闭合</translation>
    </message>
    <message>
      <source>{{{name}}} is not a variable it has (only {{input}}; write {{{{ and }}}} for braces)</source>
      <translation>{{{name}}} 不是它提供的变量（只有 {{input}}；花括号请写成 {{{{ 和 }}}}）</translation>
    </message>
    <message>
      <source>a single '}}' (write }}}} for a brace)</source>
      <translation>单独的 '}}'（花括号请写成 }}}}）</translation>
    </message>
    <message>
      <source>config.loreBooksPrompt: {detail}; LangChain throws there and the chat fails</source>
      <translation>config.loreBooksPrompt：{detail}；LangChain 会在这里抛出异常，对话失败</translation>
    </message>
    <message>
      <source>insertFrequency 0: never inserted</source>
      <translation>insertFrequency 为 0：从不插入</translation>
    </message>
    <message>
      <source>insertFrequency below 0: inserted on every turn</source>
      <translation>insertFrequency 小于 0：每回合都插入</translation>
    </message>
    <message>
      <source>turn {turn}: ChatLuna's counter is {count}, a multiple of insertFrequency {frequency}</source>
      <translation>第 {turn} 回合：ChatLuna 的计数器为 {count}，是 insertFrequency {frequency} 的倍数</translation>
    </message>
    <message>
      <source>turn {turn}: ChatLuna's counter is {count}, not a multiple of insertFrequency {frequency}</source>
      <translation>第 {turn} 回合：ChatLuna 的计数器为 {count}，不是 insertFrequency {frequency} 的倍数</translation>
    </message>
    <message>
      <source>the note renders as the empty string, which ChatLuna leaves out</source>
      <translation>作者注释渲染为空字符串，ChatLuna 会将其略去</translation>
    </message>
    <message>
      <source>world_lores[{index}]: keyword {keyword} is not a regular expression ({reason}); ChatLuna builds one from every keyword, so this throws there and no lore entry is used for that chat</source>
      <translation>world_lores[{index}]：关键词 {keyword} 不是正则表达式（{reason}）；ChatLuna 会用每个关键词构建正则表达式，所以这里会抛出异常，该对话不会使用任何世界书条目</translation>
    </message>
    <message>
      <source>world_lores[{index}]: keyword {keyword} looks like a /regex/ literal, but ChatLuna reads every keyword as the pattern itself: this one only matches text containing the slashes (write the pattern without slashes and flags)</source>
      <translation>world_lores[{index}]：关键词 {keyword} 看起来像 /regex/ 字面量，但 ChatLuna 会把每个关键词本身当作模式：这个关键词只会匹配包含斜杠的文本（请去掉斜杠和标志，只写模式）</translation>
    </message>
    <message>
      <source>format_user_prompt never writes {{prompt}}: ChatLuna replaces what the user said with this text, so the user's message is lost</source>
      <translation>format_user_prompt 从未写出 {{prompt}}：ChatLuna 会用这段文本替换用户说的话，所以用户的消息会丢失</translation>
    </message>
    <message>
      <source>time_UTC({argument}): not a UTC offset; ChatLuna renders "Invalid UTC offset"</source>
      <translation>time_UTC({argument})：不是 UTC 偏移量；ChatLuna 会渲染出 "Invalid UTC offset"</translation>
    </message>
    <message>
      <source>timeDiff: {value} is not an ISO date or date-time; it counts as an invalid date ("now")</source>
      <translation>timeDiff：{value} 不是 ISO 日期或日期时间；它会被当作无效日期（"now"）</translation>
    </message>
    <message>
      <source>url(): ChatLuna fetches {address} here and inserts up to {limit} characters of the reply; this tool does not use the network, so the call renders as the empty string</source>
      <translation>url()：ChatLuna 会在这里获取 {address}，并插入响应中最多 {limit} 个字符；本工具不使用网络，所以这个调用渲染为空字符串</translation>
    </message>
    <message>
      <source>unknown function {name}: ChatLuna's renderer throws on the call</source>
      <translation>未知函数 {name}：ChatLuna 的渲染器会在调用时抛出异常</translation>
    </message>
    <message>
      <source>unknown function {name}: ChatLuna's renderer throws on the call; {name} is a variable, and the renderer only calls registered functions this way</source>
      <translation>未知函数 {name}：ChatLuna 的渲染器会在调用时抛出异常；{name} 是变量，而渲染器只会以这种方式调用已注册的函数</translation>
    </message>
    <message>
      <source>unknown variable {name} (it renders as nothing)</source>
      <translation>未知变量 {name}（渲染为空）</translation>
    </message>
    <message>
      <source>this {{while}} condition is always true: ChatLuna stops the loop after {limit} iterations (and logs a warning)</source>
      <translation>这个 {{while}} 条件永远为真：ChatLuna 会在 {limit} 次迭代后停止循环（并记录一条警告）</translation>
    </message>
    <message>
      <source>the render would write more than {limit} characters; it stops here</source>
      <translation>渲染输出会超过 {limit} 个字符；在此停止</translation>
    </message>
    <message>
      <source>the render ran more than {limit} loop iterations in all; it stops here (ChatLuna would go on)</source>
      <translation>渲染总共运行了超过 {limit} 次循环迭代；在此停止（ChatLuna 会继续）</translation>
    </message>
    <message>
      <source>the render took more than {limit} steps in all; it stops here (ChatLuna would go on)</source>
      <translation>渲染总共执行了超过 {limit} 步；在此停止（ChatLuna 会继续）</translation>
    </message>
    <message>
      <source>the function {name} failed ({error}); it reads as nothing</source>
      <translation>函数 {name} 执行失败（{error}）；读取结果为空</translation>
    </message>
    <message>
      <source>the function {name} failed ({error})</source>
      <translation>函数 {name} 执行失败（{error}）</translation>
    </message>
    <message>
      <source>unknown variable {name}: it reads as nothing</source>
      <translation>未知变量 {name}：读取结果为空</translation>
    </message>
    <message>
      <source>unknown function {name}: ChatLuna's renderer throws here, and the whole template fails to render</source>
      <translation>未知函数 {name}：ChatLuna 的渲染器会在这里抛出异常，整个模板渲染失败</translation>
    </message>
    <message>
      <source>unknown function {name}: ChatLuna's renderer throws here, and the tag writes nothing</source>
      <translation>未知函数 {name}：ChatLuna 的渲染器会在这里抛出异常，这个标签不输出任何内容</translation>
    </message>
    <message>
      <source>evaluating this block's expression throws ({error}); ChatLuna's renderer fails on the whole template</source>
      <translation>对这个块的表达式求值时抛出异常（{error}）；整个模板在 ChatLuna 的渲染器中渲染失败</translation>
    </message>
    <message>
      <source>evaluating this tag throws in ChatLuna's renderer ({error}), so it writes nothing</source>
      <translation>在 ChatLuna 的渲染器中对这个标签求值时抛出异常（{error}），所以它不输出任何内容</translation>
    </message>
    <message>
      <source>{{while}} was still true after {limit} iterations; ChatLuna stops it there and logs a warning</source>
      <translation>{{while}} 在 {limit} 次迭代后仍为真；ChatLuna 会在那里停止它并记录一条警告</translation>
    </message>
    <message>
      <source>{{repeat}} needs a number of at least 0, got {value}; ChatLuna skips the block and logs a warning</source>
      <translation>{{repeat}} 需要不小于 0 的数字，实际为 {value}；ChatLuna 会跳过这个块并记录一条警告</translation>
    </message>
    <message>
      <source>the template is nested too deeply to render</source>
      <translation>模板嵌套过深，无法渲染</translation>
    </message>
    <message>
      <source>{{elseif}} outside an {{if}}; it is kept as text</source>
      <translation>{{elseif}} 不在 {{if}} 内；按文本保留</translation>
    </message>
    <message>
      <source>not a tag ({detail}), so it is kept as text</source>
      <translation>不是标签（{detail}），所以按文本保留</translation>
    </message>
    <message>
      <source>this block's expression does not parse ({detail}); ChatLuna's renderer throws on it and the whole template fails to render</source>
      <translation>这个块的表达式无法解析（{detail}）；ChatLuna 的渲染器会因此抛出异常，整个模板渲染失败</translation>
    </message>
    <message>
      <source>this {{ is never closed by a }}, so it and the rest of the text are kept as text</source>
      <translation>这个 {{ 始终没有被 }} 闭合，所以它和后面的文本都按文本保留</translation>
    </message>
    <message>
      <source>blocks nested deeper than {limit} levels; ChatLuna's renderer runs out of stack and fails</source>
      <translation>块嵌套超过 {limit} 层；ChatLuna 的渲染器会栈溢出并失败</translation>
    </message>
    <message>
      <source>{{for}} needs "NAME in LIST"; without " in " the tag is kept as text</source>
      <translation>{{for}} 需要写成 "NAME in LIST"；没有 " in " 时，这个标签按文本保留</translation>
    </message>
    <message>
      <source>{{{closer}}} closes no open {{{block}}}; it is kept as text</source>
      <translation>{{{closer}}} 没有闭合任何打开的 {{{block}}}；按文本保留</translation>
    </message>
    <message>
      <source>{{{keyword}}} outside an {{if}} is read as a variable named {name} (it renders as nothing)</source>
      <translation>{{{keyword}}} 不在 {{if}} 内，会被读作名为 {name} 的变量（渲染为空）</translation>
    </message>
    <message>
      <source>{{{keyword}}} without anything after it opens no block: it is read as a variable named {name} (it renders as nothing)</source>
      <translation>{{{keyword}}} 后面没有任何内容，不会打开块：它会被读作名为 {name} 的变量（渲染为空）</translation>
    </message>
    <message>
      <source>{{{block}}} is never closed: add {{/{block}}} (ChatLuna renders the rest of the text as its body)</source>
      <translation>{{{block}}} 始终没有闭合：请添加 {{/{block}}}（ChatLuna 会把后面的文本都渲染为它的主体）</translation>
    </message>
    <message>
      <source>{count} more parse problems after this one are not listed</source>
      <translation>此后还有 {count} 个解析问题未列出</translation>
    </message>
    <message>
      <source>expected a value (a quoted string, a number or a name), found {token}</source>
      <translation>此处应为值（带引号的字符串、数字或名称），实际为 {token}</translation>
    </message>
    <message>
      <source>{{{keyword}}} needs a condition, e.g. {{{keyword} name}} or {{{keyword} name == "x"}}</source>
      <translation>{{{keyword}}} 需要条件，例如 {{{keyword} name}} 或 {{{keyword} name == "x"}}</translation>
    </message>
    <message>
      <source>a condition is one value or 'value OP value' (OP one of {operators}); logical operators are not part of the language</source>
      <translation>条件是一个值或 'value OP value'（OP 为 {operators} 之一）；该语言不支持逻辑运算符</translation>
    </message>
    <message>
      <source>a condition compares exactly two values</source>
      <translation>条件必须恰好比较两个值</translation>
    </message>
    <message>
      <source>unexpected {token} in a tag</source>
      <translation>标签中出现意外的 {token}</translation>
    </message>
    <message>
      <source>unknown closing tag {{{closer}}}; blocks close with {closers}</source>
      <translation>未知的闭合标签 {{{closer}}}；块应以 {closers} 闭合</translation>
    </message>
    <message>
      <source>{{{closer}}} takes nothing after it</source>
      <translation>{{{closer}}} 后面不能跟任何内容</translation>
    </message>
    <message>
      <source>{{else}} takes nothing after it; use {{elseif condition}}</source>
      <translation>{{else}} 后面不能跟任何内容；请使用 {{elseif condition}}</translation>
    </message>
    <message>
      <source>a loop is written {{for name in list}}</source>
      <translation>循环写作 {{for name in list}}</translation>
    </message>
    <message>
      <source>a repeat is written {{repeat count}}</source>
      <translation>重复块写作 {{repeat count}}</translation>
    </message>
    <message>
      <source>{{{name}}} is a constant, not a variable</source>
      <translation>{{{name}}} 是常量，不是变量</translation>
    </message>
    <message>
      <source>an operator ({operator}) only appears in a condition</source>
      <translation>运算符（{operator}）只能出现在条件中</translation>
    </message>
    <message>
      <source>{detail}; the tag is kept as text</source>
      <translation>{detail}；这个标签按文本保留</translation>
    </message>
    <message>
      <source>{{{block}}} is never closed with {{/{block}}}; its tag is kept as text</source>
      <translation>{{{block}}} 始终没有用 {{/{block}}} 闭合；它的标签按文本保留</translation>
    </message>
    <message>
      <source>a quoted string in this tag is never closed on its line, so the tag never ends; the '{{' is kept as text</source>
      <translation>这个标签中的带引号字符串在本行内没有闭合，所以标签不会结束；'{{' 按文本保留</translation>
    </message>
    <message>
      <source>'{{' opens no tag (there is no '}}' on this line); it is kept as text. Write '{{{{' for a literal brace</source>
      <translation>'{{' 没有打开标签（本行没有 '}}'）；按文本保留。字面花括号请写成 '{{{{'</translation>
    </message>
    <message>
      <source>this is not a tag, so it is kept as text; write '{{{{' and '}}}}' for literal braces</source>
      <translation>这不是标签，所以按文本保留；字面花括号请写成 '{{{{' 和 '}}}}'</translation>
    </message>
    <message>
      <source>{{{keyword}}} outside an {{if}} block; kept as text</source>
      <translation>{{{keyword}}} 不在 {{if}} 块内；按文本保留</translation>
    </message>
    <message>
      <source>{{{keyword}}} after {{else}}; kept as text</source>
      <translation>{{{keyword}}} 位于 {{else}} 之后；按文本保留</translation>
    </message>
    <message>
      <source>{{/{block}}} closes no open {{{block}}}; kept as text</source>
      <translation>{{/{block}}} 没有闭合任何打开的 {{{block}}}；按文本保留</translation>
    </message>
    <message>
      <source>the render would write more than {limit} characters in all (settings.outputLimit); writing stopped here</source>
      <translation>渲染输出总共将超过 {limit} 个字符（settings.outputLimit）；输出在此停止</translation>
    </message>
    <message>
      <source>the render looped more than {limit} times in all (every block of one render shares this budget); rendering stopped here</source>
      <translation>渲染总共循环了超过 {limit} 次（同一次渲染中的所有块共用这个额度）；渲染在此停止</translation>
    </message>
    <message>
      <source>{{while}} was still true after {limit} iterations (values do not change during one render); stopped at the loop limit</source>
      <translation>{{while}} 在 {limit} 次迭代后仍为真（值在一次渲染中不会改变）；已在循环上限处停止</translation>
    </message>
    <message>
      <source>{name} is an object, which renders as '[object Object]'; give a string or pick a property (name.key)</source>
      <translation>{name} 是对象，会渲染为 '[object Object]'；请给出字符串或选取一个属性（name.key）</translation>
    </message>
    <message>
      <source>{{for}} needs a list, but this is {found}; the loop runs zero times</source>
      <translation>{{for}} 需要列表，但这里是 {found}；循环执行零次</translation>
    </message>
    <message>
      <source>the list has {count} items; only the first {limit} are rendered (loop limit)</source>
      <translation>列表有 {count} 项；只渲染前 {limit} 项（循环上限）</translation>
    </message>
    <message>
      <source>{{repeat}} needs a number, but this is {found}; it repeats zero times</source>
      <translation>{{repeat}} 需要数字，但这里是 {found}；重复零次</translation>
    </message>
    <message>
      <source>{{repeat}} count {count} is not a whole number &gt;= 0; it repeats without end</source>
      <translation>{{repeat}} 的次数 {count} 不是 &gt;= 0 的整数；它会无限重复</translation>
    </message>
    <message>
      <source>{{repeat}} count {count} is not a whole number &gt;= 0; it repeats {times} times</source>
      <translation>{{repeat}} 的次数 {count} 不是 &gt;= 0 的整数；它会重复 {times} 次</translation>
    </message>
    <message>
      <source>{{repeat}} asks for {count} repetitions; only {limit} are rendered (loop limit)</source>
      <translation>{{repeat}} 要求重复 {count} 次；只渲染 {limit} 次（循环上限）</translation>
    </message>
    <message>
      <source>expected a table/object, found {found}</source>
      <translation>应为表/对象，实际为 {found}</translation>
    </message>
    <message>
      <source>unknown key {key} (known: {known})</source>
      <translation>未知键 {key}（已知：{known}）</translation>
    </message>
    <message>
      <source>{key} is required</source>
      <translation>{key} 为必填项</translation>
    </message>
    <message>
      <source>{key} must be a string, found {found}</source>
      <translation>{key} 必须是字符串，实际为 {found}</translation>
    </message>
    <message>
      <source>{key} must be one of {choices}, found {value}</source>
      <translation>{key} 必须是 {choices} 之一，实际为 {value}</translation>
    </message>
    <message>
      <source>{key} must be true or false, found {found}</source>
      <translation>{key} 必须是 true 或 false，实际为 {found}</translation>
    </message>
    <message>
      <source>{key} must be a number, found {found}</source>
      <translation>{key} 必须是数字，实际为 {found}</translation>
    </message>
    <message>
      <source>values are nested more than {limit} levels deep</source>
      <translation>值的嵌套超过 {limit} 层</translation>
    </message>
    <message>
      <source>expected a list, found {found}</source>
      <translation>应为列表，实际为 {found}</translation>
    </message>
    <message>
      <source>variable {name} is declared twice</source>
      <translation>变量 {name} 被声明了两次</translation>
    </message>
    <message>
      <source>'name' must be a word without spaces or braces, found {name}</source>
      <translation>'name' 必须是不含空格和花括号的单词，实际为 {name}</translation>
    </message>
    <message>
      <source>'zones' must be a list of zone names, found {found}</source>
      <translation>'zones' 必须是区名列表，实际为 {found}</translation>
    </message>
    <message>
      <source>'zones' lists {name}; zones are {known}</source>
      <translation>'zones' 列出了 {name}；可用的区为 {known}</translation>
    </message>
    <message>
      <source>'args' must be a list, found {found}</source>
      <translation>'args' 必须是列表，实际为 {found}</translation>
    </message>
    <message>
      <source>an argument is a name or {{name, optional}}, found {found}</source>
      <translation>参数应为名称或 {{name, optional}}，实际为 {found}</translation>
    </message>
    <message>
      <source>mixes the plain form (key {key}) with the per-turn form ({used}); put plain values under 'base', or drop {used} and write the environment as one mapping</source>
      <translation>混用了普通形式（键 {key}）和按回合形式（{used}）；请把普通值放在 'base' 下，或去掉 {used}，把环境写成一个映射</translation>
    </message>
    <message>
      <source>expected a list of tables, found {found}</source>
      <translation>应为由表组成的列表，实际为 {found}</translation>
    </message>
    <message>
      <source>'failTurns' must be a list of turn numbers</source>
      <translation>'failTurns' 必须是回合编号列表</translation>
    </message>
    <message>
      <source>{key} must be a whole number &gt;= 0, found {found}</source>
      <translation>{key} 必须是 &gt;= 0 的整数，实际为 {found}</translation>
    </message>
    <message>
      <source>{key} may be at most {most} ({mebi} Mi), found {found}</source>
      <translation>{key} 最大为 {most}（{mebi} Mi），实际为 {found}</translation>
    </message>
    <message>
      <source>{path}: unknown config format {suffix}; use .json, .yaml, .yml or .toml</source>
      <translation>{path}：未知的配置格式 {suffix}；请使用 .json、.yaml、.yml 或 .toml</translation>
    </message>
    <message>
      <source>{path}: unknown config format '(no extension)'; use .json, .yaml, .yml or .toml</source>
      <translation>{path}：未知的配置格式（没有扩展名）；请使用 .json、.yaml、.yml 或 .toml</translation>
    </message>
    <message>
      <source>unknown config format {format}</source>
      <translation>未知的配置格式 {format}</translation>
    </message>
    <message>
      <source>{origin}: unknown config format {format}</source>
      <translation>{origin}：未知的配置格式 {format}</translation>
    </message>
    <message>
      <source>{origin}: not valid {format}: nested too deeply to read</source>
      <translation>{origin}：不是有效的 {format}：嵌套太深，无法读取</translation>
    </message>
    <message>
      <source>{origin}: not valid {format}: an integer literal has more digits than can be read (the limit is 4300)</source>
      <translation>{origin}：不是有效的 {format}：整数字面量的位数超出可读取范围（上限为 4300）</translation>
    </message>
    <message>
      <source>{origin}: not valid {format}: {problem} at line {line}, column {column}</source>
      <translation>{origin}：不是有效的 {format}：{problem}（第 {line} 行，第 {column} 列）</translation>
    </message>
    <message>
      <source>{origin}: not valid {format}: {problem}</source>
      <translation>{origin}：不是有效的 {format}：{problem}</translation>
    </message>
    <message>
      <source>{path}: no such file</source>
      <translation>{path}：文件不存在</translation>
    </message>
    <message>
      <source>{path}: cannot read: {error}</source>
      <translation>{path}：无法读取：{error}</translation>
    </message>
    <message>
      <source>{path}: not UTF-8 text (byte {offset})</source>
      <translation>{path}：不是 UTF-8 文本（第 {offset} 字节）</translation>
    </message>
    <message>
      <source>TOML has no null, and a list of per-turn values cannot skip one; save this config as JSON or YAML</source>
      <translation>TOML 没有 null，而按回合的值列表不能跳过其中一项；请把这个配置保存为 JSON 或 YAML</translation>
    </message>
    <message>
      <source>cannot write {type} to TOML</source>
      <translation>无法把 {type} 写入 TOML</translation>
    </message>
    <message>
      <source>{origin}: {place}: {detail}</source>
      <translation>{origin}：{place}：{detail}</translation>
    </message>
    <message>
      <source>unterminated string literal</source>
      <translation>字符串字面量未闭合</translation>
    </message>
    <message>
      <source>unexpected character {character}</source>
      <translation>意外的字符 {character}</translation>
    </message>
    <message>
      <source>the expression is nested deeper than {limit} levels</source>
      <translation>表达式的嵌套超过 {limit} 层</translation>
    </message>
    <message>
      <source>unexpected token after the expression</source>
      <translation>表达式后出现意外的 token</translation>
    </message>
    <message>
      <source>the expression is nested too deeply (more than {limit} levels)</source>
      <translation>表达式嵌套太深（超过 {limit} 层）</translation>
    </message>
    <message>
      <source>expected ":" in the conditional expression</source>
      <translation>条件表达式中缺少 ":"</translation>
    </message>
    <message>
      <source>too many prefix operators in a row</source>
      <translation>连续的前缀运算符太多</translation>
    </message>
    <message>
      <source>expected a name after "."</source>
      <translation>"." 后应为名称</translation>
    </message>
    <message>
      <source>expected "]"</source>
      <translation>缺少 "]"</translation>
    </message>
    <message>
      <source>expected ")"</source>
      <translation>缺少 ")"</translation>
    </message>
    <message>
      <source>unexpected end of the expression</source>
      <translation>表达式意外结束</translation>
    </message>
    <message>
      <source>unexpected {token}</source>
      <translation>意外的 {token}</translation>
    </message>
    <message>
      <source>uncached input {usd} USD ({tokens} tokens)</source>
      <translation>未缓存输入 {usd} 美元（{tokens} 个 token）</translation>
    </message>
    <message>
      <source>cache read {usd} USD ({tokens} tokens)</source>
      <translation>缓存读取 {usd} 美元（{tokens} 个 token）</translation>
    </message>
    <message>
      <source>5-minute write {usd} USD ({tokens} tokens)</source>
      <translation>5 分钟写入 {usd} 美元（{tokens} 个 token）</translation>
    </message>
    <message>
      <source>1-hour write {usd} USD ({tokens} tokens)</source>
      <translation>1 小时写入 {usd} 美元（{tokens} 个 token）</translation>
    </message>
    <message>
      <source>the check stopped with an unexpected error ({error}); the text is kept as it is. Please report this</source>
      <translation>检查因意外错误而中止（{error}）；文本保持原样。请报告此问题</translation>
    </message>
    <message>
      <source>the render stopped with an unexpected error ({error}); the text is kept as it is. Please report this</source>
      <translation>渲染因意外错误而中止（{error}）；文本保持原样。请报告此问题</translation>
    </message>
    <message>
      <source>the simulation stopped with an unexpected error ({error}); the text is kept as it is. Please report this</source>
      <translation>模拟因意外错误而中止（{error}）；文本保持原样。请报告此问题</translation>
    </message>
    <message>
      <source>{path}: a preset has no key {key}, so ChatLuna ignores it (known: {known})</source>
      <translation>{path}：预设没有键 {key}，所以 ChatLuna 会忽略它（已知：{known}）</translation>
    </message>
    <message>
      <source>{path}: a prompt has no key {key}, so ChatLuna ignores it (known: {known})</source>
      <translation>{path}：提示词没有键 {key}，所以 ChatLuna 会忽略它（已知：{known}）</translation>
    </message>
    <message>
      <source>{path}: the lore book's settings has no key {key}, so ChatLuna ignores it (known: {known})</source>
      <translation>{path}：世界书的设置没有键 {key}，所以 ChatLuna 会忽略它（已知：{known}）</translation>
    </message>
    <message>
      <source>{path}: a lore entry has no key {key}, so ChatLuna ignores it (known: {known})</source>
      <translation>{path}：世界书条目没有键 {key}，所以 ChatLuna 会忽略它（已知：{known}）</translation>
    </message>
    <message>
      <source>{path}: the author's note has no key {key}, so ChatLuna ignores it (known: {known})</source>
      <translation>{path}：作者注释没有键 {key}，所以 ChatLuna 会忽略它（已知：{known}）</translation>
    </message>
    <message>
      <source>{path}: knowledge has no key {key}, so ChatLuna ignores it (known: {known})</source>
      <translation>{path}：knowledge 没有键 {key}，所以 ChatLuna 会忽略它（已知：{known}）</translation>
    </message>
    <message>
      <source>{path}: config has no key {key}, so ChatLuna ignores it (known: {known})</source>
      <translation>{path}：config 没有键 {key}，所以 ChatLuna 会忽略它（已知：{known}）</translation>
    </message>
    <message>
      <source>{path}: the post handler has no key {key}, so ChatLuna ignores it (known: {known})</source>
      <translation>{path}：后处理器没有键 {key}，所以 ChatLuna 会忽略它（已知：{known}）</translation>
    </message>
    <message>
      <source>{path}: the file is {size} bytes; a file may be at most {limit} bytes</source>
      <translation>{path}：文件有 {size} 字节；文件最大为 {limit} 字节</translation>
    </message>
    <message>
      <source>{path}: the file is {size} bytes; a config may be at most {limit} bytes</source>
      <translation>{path}：文件有 {size} 字节；配置最大为 {limit} 字节</translation>
    </message>
    <message>
      <source>{path}: the file is {size} bytes; a preset may be at most {limit} bytes</source>
      <translation>{path}：文件有 {size} 字节；预设最大为 {limit} 字节</translation>
    </message>
    <message>
      <source>{path}: is a directory, not a file</source>
      <translation>{path}：是目录，不是文件</translation>
    </message>
    <message>
      <source>{path}: is a directory, not a config</source>
      <translation>{path}：是目录，不是配置</translation>
    </message>
    <message>
      <source>{path}: is a directory, not a preset</source>
      <translation>{path}：是目录，不是预设</translation>
    </message>
  </context>
  <context>
    <name>Names</name>
    <message>
      <source>Turn {number}</source>
      <translation>第 {number} 回合</translation>
    </message>
    <message>
      <source>Turn {id}</source>
      <translation>回合 {id}</translation>
    </message>
    <message>
      <source>step {number}</source>
      <translation>第 {number} 步</translation>
    </message>
    <message>
      <source>attempt {number}</source>
      <translation>第 {number} 次尝试</translation>
    </message>
  </context>
  <context>
    <name>PartNames</name>
    <message>
      <source>⟦cache breakpoint⟧</source>
      <translation>⟦缓存断点⟧</translation>
    </message>
    <message>
      <source>system prompt</source>
      <translation>系统提示词</translation>
    </message>
    <message>
      <source>preamble</source>
      <translation>前导</translation>
    </message>
    <message>
      <source>runtime body</source>
      <translation>运行时正文</translation>
    </message>
    <message>
      <source>stable segments</source>
      <translation>稳定片段</translation>
    </message>
    <message>
      <source>world info (before plugin)</source>
      <translation>世界书（插件前）</translation>
    </message>
    <message>
      <source>world info (after plugin)</source>
      <translation>世界书（插件后）</translation>
    </message>
    <message>
      <source>world info (after plugin; may include before-plugin entries)</source>
      <translation>世界书（插件后；可能含插件前条目）</translation>
    </message>
    <message>
      <source>session injects</source>
      <translation>会话注入</translation>
    </message>
    <message>
      <source>turn segments</source>
      <translation>回合片段</translation>
    </message>
    <message>
      <source>turn context</source>
      <translation>回合上下文</translation>
    </message>
    <message>
      <source>tools</source>
      <translation>工具</translation>
    </message>
    <message>
      <source>pre-history</source>
      <translation>历史前</translation>
    </message>
    <message>
      <source>summaries</source>
      <translation>摘要</translation>
    </message>
    <message>
      <source>summary note</source>
      <translation>摘要说明</translation>
    </message>
    <message>
      <source>history</source>
      <translation>历史</translation>
    </message>
    <message>
      <source>response format</source>
      <translation>响应格式</translation>
    </message>
    <message>
      <source>pictures</source>
      <translation>图片</translation>
    </message>
    <message>
      <source>current input</source>
      <translation>当前输入</translation>
    </message>
    <message>
      <source>current input (blank-input cue)</source>
      <translation>当前输入（空输入提示）</translation>
    </message>
    <message>
      <source>execution story</source>
      <translation>本回合叙事</translation>
    </message>
    <message>
      <source>closing cue</source>
      <translation>收尾提示</translation>
    </message>
    <message>
      <source>post-history (or depth-0 insertions)</source>
      <translation>历史后（或深度 0 插入）</translation>
    </message>
    <message>
      <source>tool loop</source>
      <translation>工具循环</translation>
    </message>
    <message>
      <source>leading system message (pre-history or depth insertion)</source>
      <translation>开头的系统消息（历史前或深度插入）</translation>
    </message>
    <message>
      <source>cache breakpoint (sentinel)</source>
      <translation>缓存断点（哨兵）</translation>
    </message>
    <message>
      <source>cache breakpoint (cache_control)</source>
      <translation>缓存断点（cache_control）</translation>
    </message>
    <message>
      <source>continuation opener</source>
      <translation>续写开头</translation>
    </message>
    <message>
      <source>pruned-history marker</source>
      <translation>历史裁剪标记</translation>
    </message>
    <message>
      <source>unrecognised text before the runtime body</source>
      <translation>运行时正文之前无法识别的文本</translation>
    </message>
    <message>
      <source>untagged segment</source>
      <translation>无标签片段</translation>
    </message>
    <message>
      <source>untagged text</source>
      <translation>无标签文本</translation>
    </message>
    <message>
      <source>[Compacted history: …] (legacy)</source>
      <translation>[Compacted history: …]（旧格式）</translation>
    </message>
    <message>
      <source>request settings</source>
      <translation>请求设置</translation>
    </message>
    <message>
      <source>(request ends earlier)</source>
      <translation>（请求提前结束）</translation>
    </message>
    <message>
      <source>(identical)</source>
      <translation>（完全相同）</translation>
    </message>
    <message>
      <source>(no earlier request)</source>
      <translation>（没有更早的请求）</translation>
    </message>
    <message>
      <source>depth insertion</source>
      <translation>深度插入</translation>
    </message>
    <message>
      <source>cache breakpoints</source>
      <translation>缓存断点</translation>
    </message>
    <message>
      <source>every breakpoint</source>
      <translation>所有断点</translation>
    </message>
    <message>
      <source>cache writes</source>
      <translation>缓存写入</translation>
    </message>
    <message>
      <source>cache TTL</source>
      <translation>缓存 TTL</translation>
    </message>
    <message>
      <source>input cost</source>
      <translation>输入费用</translation>
    </message>
    <message>
      <source>system</source>
      <translation>系统</translation>
    </message>
    <message>
      <source>user</source>
      <translation>用户</translation>
    </message>
    <message>
      <source>assistant</source>
      <translation>助手</translation>
    </message>
    <message>
      <source>tool</source>
      <translation>工具</translation>
    </message>
    <message>
      <source>developer</source>
      <translation>开发者</translation>
    </message>
    <message>
      <source>model</source>
      <translation>模型</translation>
    </message>
    <message>
      <source>system prompt (part {n})</source>
      <translation>系统提示词（第 {n} 部分）</translation>
    </message>
    <message>
      <source>system block {n}</source>
      <translation>系统块 {n}</translation>
    </message>
    <message>
      <source>message {n}</source>
      <translation>消息 {n}</translation>
    </message>
    <message>
      <source>pre-history extension message</source>
      <translation>历史前扩展消息</translation>
    </message>
    <message>
      <source>depth insertion or late system segment</source>
      <translation>深度插入或后置系统片段</translation>
    </message>
    <message>
      <source>post-history segment or depth-0 insertion</source>
      <translation>历史后片段或深度 0 插入</translation>
    </message>
    <message>
      <source>tool calls</source>
      <translation>工具调用</translation>
    </message>
    <message>
      <source>tool result</source>
      <translation>工具结果</translation>
    </message>
    <message>
      <source>steering or retry hint</source>
      <translation>引导或重试提示</translation>
    </message>
    <message>
      <source>setup</source>
      <translation>设定中</translation>
    </message>
    <message>
      <source>playing</source>
      <translation>游玩中</translation>
    </message>
    <message>
      <source>player</source>
      <translation>玩家</translation>
    </message>
    <message>
      <source>manual</source>
      <translation>手动</translation>
    </message>
    <message>
      <source>follower</source>
      <translation>跟随</translation>
    </message>
    <message>
      <source>recursive</source>
      <translation>递归</translation>
    </message>
    <message>
      <source>continuation</source>
      <translation>续写</translation>
    </message>
    <message>
      <source>pending</source>
      <translation>待提交</translation>
    </message>
    <message>
      <source>committed</source>
      <translation>已提交</translation>
    </message>
    <message>
      <source>uncommitted</source>
      <translation>未提交</translation>
    </message>
    <message>
      <source>failed</source>
      <translation>失败</translation>
    </message>
    <message>
      <source>success</source>
      <translation>成功</translation>
    </message>
    <message>
      <source>started</source>
      <translation>已开始</translation>
    </message>
    <message>
      <source>skipped</source>
      <translation>已跳过</translation>
    </message>
    <message>
      <source>deferred</source>
      <translation>已推迟</translation>
    </message>
    <message>
      <source>suspended</source>
      <translation>已挂起</translation>
    </message>
    <message>
      <source>completed</source>
      <translation>已完成</translation>
    </message>
    <message>
      <source>exact</source>
      <translation>精确</translation>
    </message>
    <message>
      <source>proxy tokenizer</source>
      <translation>代理分词器</translation>
    </message>
    <message>
      <source>{role} #{n}</source>
      <translation>{role} #{n}</translation>
    </message>
    <message>
      <source>{label} ({qualifier})</source>
      <translation>{label}（{qualifier}）</translation>
    </message>
  </context>
  <context>
    <name>Stages</name>
    <message>
      <source>setup</source>
      <translation>设定</translation>
    </message>
    <message>
      <source>pre-turn</source>
      <translation>回合前</translation>
    </message>
    <message>
      <source>narrative</source>
      <translation>叙事</translation>
    </message>
    <message>
      <source>post-turn</source>
      <translation>回合后</translation>
    </message>
    <message>
      <source>audit</source>
      <translation>审计</translation>
    </message>
  </context>
  <context>
    <name>RequestView</name>
    <message>
      <source>Copy</source>
      <translation>复制</translation>
    </message>
    <message>
      <source>Copy the anatomy or the provider body</source>
      <translation>复制请求结构或服务商请求体</translation>
    </message>
    <message>
      <source>Export</source>
      <translation>导出</translation>
    </message>
    <message>
      <source>Save the anatomy or the provider body to a file</source>
      <translation>将请求结构或服务商请求体保存到文件</translation>
    </message>
    <message>
      <source>Compare</source>
      <translation>比较</translation>
    </message>
    <message>
      <source>Compare this request with another one, part by part</source>
      <translation>将此请求与另一个请求逐部分比较</translation>
    </message>
    <message>
      <source>kernel messages</source>
      <translation>内核消息</translation>
    </message>
    <message>
      <source>complete body</source>
      <translation>完整请求体</translation>
    </message>
    <message>
      <source>failed</source>
      <translation>失败</translation>
    </message>
    <message>
      <source>Request not shown</source>
      <translation>未显示请求</translation>
    </message>
    <message>
      <source>(no runtime)</source>
      <translation>（无运行时）</translation>
    </message>
    <message>
      <source>completeness not recorded</source>
      <translation>未记录完整性</translation>
    </message>
    <message>
      <source>status {code}</source>
      <translation>状态码 {code}</translation>
    </message>
    <message>
      <source>Copied the request id to the clipboard</source>
      <translation>已将请求 ID 复制到剪贴板</translation>
    </message>
    <message>
      <source>&lt;b&gt;{exact}&lt;/b&gt; tokens ({encoding}, {provenance})</source>
      <translation>&lt;b&gt;{exact}&lt;/b&gt; 个 token（{encoding}，{provenance}）</translation>
    </message>
    <message>
      <source>&lt;b&gt;{est}&lt;/b&gt; estimated tokens</source>
      <translation>估算 &lt;b&gt;{est}&lt;/b&gt; 个 token</translation>
    </message>
    <message>
      <source>reported input {input} · cached {cached} · cache write {write} · output {output}</source>
      <translation>上报输入 {input} · 缓存命中 {cached} · 缓存写入 {write} · 输出 {output}</translation>
    </message>
    <message>
      <source>retry reason: {reason}</source>
      <translation>重试原因：{reason}</translation>
    </message>
    <message>
      <source>bodyRef → attempt {n} (body resolved from it)</source>
      <translation>bodyRef → 第 {n} 次尝试（请求体由其还原）</translation>
    </message>
    <message>
      <source>body error: {error}</source>
      <translation>请求体错误：{error}</translation>
    </message>
    <message>
      <source>Loading request {id}…</source>
      <translation>正在加载请求 {id}…</translation>
    </message>
    <message>
      <source>{n} transport attempts</source>
      <translation>{n} 次传输尝试</translation>
    </message>
    <message>
      <source>partial body: {n} omitted fields</source>
      <translation>不完整的请求体：省略了 {n} 个字段</translation>
    </message>
    <message>
      <source>Compare with…</source>
      <translation>与…比较</translation>
    </message>
    <message>
      <source>Filter by runtime, model or id</source>
      <translation>按运行时、模型或 ID 筛选</translation>
    </message>
    <message>
      <source>Turn</source>
      <translation>回合</translation>
    </message>
    <message>
      <source>Runtime</source>
      <translation>运行时</translation>
    </message>
    <message>
      <source>Step</source>
      <translation>步骤</translation>
    </message>
    <message>
      <source>Attempt</source>
      <translation>尝试</translation>
    </message>
    <message>
      <source>Model</source>
      <translation>模型</translation>
    </message>
    <message>
      <source>Input tokens</source>
      <translation>输入 token</translation>
    </message>
    <message>
      <source>Request id</source>
      <translation>请求 ID</translation>
    </message>
    <message>
      <source>No response was recorded for this request.</source>
      <translation>此请求没有记录响应。</translation>
    </message>
    <message>
      <source>Request View</source>
      <translation>请求视图</translation>
    </message>
    <message>
      <source>Segment stack</source>
      <translation>片段栈</translation>
    </message>
    <message>
      <source>Turn context</source>
      <translation>回合上下文</translation>
    </message>
    <message>
      <source>History bags</source>
      <translation>历史分组</translation>
    </message>
    <message>
      <source>Anatomy</source>
      <translation>结构</translation>
    </message>
    <message>
      <source>Conversation</source>
      <translation>对话</translation>
    </message>
    <message>
      <source>Kernel messages</source>
      <translation>内核消息</translation>
    </message>
    <message>
      <source>Provider body</source>
      <translation>服务商请求体</translation>
    </message>
    <message>
      <source>Response</source>
      <translation>响应</translation>
    </message>
    <message>
      <source>Raw event</source>
      <translation>原始事件</translation>
    </message>
    <message>
      <source>Copy Anatomy as &amp;Markdown</source>
      <translation>将结构复制为 Markdown(&amp;M)</translation>
    </message>
    <message>
      <source>Copy Anatomy as &amp;JSON</source>
      <translation>将结构复制为 JSON(&amp;J)</translation>
    </message>
    <message>
      <source>Copy &amp;Provider Body</source>
      <translation>复制服务商请求体(&amp;P)</translation>
    </message>
    <message>
      <source>Anatomy as &amp;Markdown…</source>
      <translation>结构（Markdown）(&amp;M)…</translation>
    </message>
    <message>
      <source>Anatomy as &amp;JSON…</source>
      <translation>结构（JSON）(&amp;J)…</translation>
    </message>
    <message>
      <source>&amp;Provider Body…</source>
      <translation>服务商请求体(&amp;P)…</translation>
    </message>
    <message>
      <source>Compare with &amp;Previous Turn</source>
      <translation>与上一回合比较(&amp;P)</translation>
    </message>
    <message>
      <source>Compare &amp;with…</source>
      <translation>与…比较(&amp;W)</translation>
    </message>
    <message>
      <source>payload.messages and tools as Covel recorded them</source>
      <translation>Covel 记录的 payload.messages 与工具</translation>
    </message>
    <message>
      <source>the provider body</source>
      <translation>服务商请求体</translation>
    </message>
    <message>
      <source>Export Request</source>
      <translation>导出请求</translation>
    </message>
    <message>
      <source>Comparing…</source>
      <translation>正在比较…</translation>
    </message>
    <message>
      <source>No database is open.</source>
      <translation>尚未打开数据库。</translation>
    </message>
    <message>
      <source>Select a part to see its text</source>
      <translation>选择一个部分以查看其文本</translation>
    </message>
    <message>
      <source>{title} — {tokens} tokens, {share}</source>
      <translation>{title} — {tokens} 个 token，{share}</translation>
    </message>
    <message>
      <source>finish: {finish} · {ms} ms</source>
      <translation>结束原因：{finish} · {ms} 毫秒</translation>
    </message>
    <message>
      <source>No provider body was recorded; the anatomy uses the kernel messages.</source>
      <translation>没有记录服务商请求体；结构基于内核消息。</translation>
    </message>
    <message>
      <source>none</source>
      <translation>无</translation>
    </message>
    <message>
      <source>the anatomy as Markdown</source>
      <translation>Markdown 格式的结构</translation>
    </message>
    <message>
      <source>the anatomy as JSON</source>
      <translation>JSON 格式的结构</translation>
    </message>
    <message>
      <source>Markdown (*.md);;All files (*)</source>
      <translation>Markdown (*.md);;所有文件 (*)</translation>
    </message>
    <message>
      <source>JSON (*.json);;All files (*)</source>
      <translation>JSON (*.json);;所有文件 (*)</translation>
    </message>
    <message>
      <source>This runtime did not run in an earlier turn of the session.</source>
      <translation>此运行时在本会话更早的回合中没有运行过。</translation>
    </message>
    <message>
      <source>The previous request cannot be read.</source>
      <translation>无法读取上一个请求。</translation>
    </message>
    <message>
      <source>Cannot read request {id}: {error}</source>
      <translation>无法读取请求 {id}：{error}</translation>
    </message>
    <message>
      <source>trace_events row {id}</source>
      <translation>trace_events 行 {id}</translation>
    </message>
    <message>
      <source>{title} — none</source>
      <translation>{title} — 无</translation>
    </message>
    <message>
      <source>Attempt {n}</source>
      <translation>第 {n} 次尝试</translation>
    </message>
    <message>
      <source>Cache breakpoint ({label}): the provider caches everything before it</source>
      <translation>缓存断点（{label}）：服务商会缓存它之前的全部内容</translation>
    </message>
    <message>
      <source>Copied {what} to the clipboard</source>
      <translation>已将{what}复制到剪贴板</translation>
    </message>
    <message>
      <source>Saved {path}</source>
      <translation>已保存 {path}</translation>
    </message>
    <message>
      <source>{id} is not a model request in this database.</source>
      <translation>{id} 不是此数据库中的模型请求。</translation>
    </message>
    <message>
      <source>{exact} tokens</source>
      <translation>{exact} 个 token</translation>
    </message>
    <message>
      <source>{est} estimated tokens</source>
      <translation>估算 {est} 个 token</translation>
    </message>
    <message>
      <source>Cannot show this text: {error}</source>
      <translation>无法显示此文本：{error}</translation>
    </message>
    <message>
      <source>Cannot write {path}: {error}</source>
      <translation>无法写入 {path}：{error}</translation>
    </message>
    <message>
      <source>recognised by {how}</source>
      <translation>识别依据：{how}</translation>
    </message>
  </context>
  <context>
    <name>TextPane</name>
    <message>
      <source>Wrap</source>
      <translation>自动换行</translation>
    </message>
    <message>
      <source>Wrap long lines</source>
      <translation>长行自动换行</translation>
    </message>
    <message>
      <source>Unescaped</source>
      <translation>反转义</translation>
    </message>
    <message>
      <source>Show JSON string values as text: line breaks as lines, no escapes</source>
      <translation>把 JSON 字符串值显示为文本：换行显示为新行，不显示转义符</translation>
    </message>
    <message>
      <source>Find in text (Enter: next, Shift+Enter: previous)</source>
      <translation>在文本中查找（Enter：下一个，Shift+Enter：上一个）</translation>
    </message>
    <message>
      <source>Previous match</source>
      <translation>上一个匹配</translation>
    </message>
    <message>
      <source>Next match</source>
      <translation>下一个匹配</translation>
    </message>
    <message>
      <source>Close (Esc)</source>
      <translation>关闭 (Esc)</translation>
    </message>
    <message>
      <source>No match</source>
      <translation>无匹配</translation>
    </message>
    <message>
      <source>Show all ({size:,} characters)</source>
      <translation>显示全部（{size:,} 个字符）</translation>
    </message>
    <message>
      <source>Only the first {n:,} characters are shown; show the whole text</source>
      <translation>仅显示前 {n:,} 个字符；点击显示全文</translation>
    </message>
  </context>
  <context>
    <name>TurnView</name>
    <message>
      <source>Turn Stepper</source>
      <translation>回合步进器</translation>
    </message>
    <message>
      <source>No turn selected</source>
      <translation>未选择回合</translation>
    </message>
    <message>
      <source>First event (Home)</source>
      <translation>第一个事件（Home）</translation>
    </message>
    <message>
      <source>Previous stage (Shift+Left or [)</source>
      <translation>上一阶段（Shift+← 或 [）</translation>
    </message>
    <message>
      <source>Previous event (Left or K)</source>
      <translation>上一个事件（← 或 K）</translation>
    </message>
    <message>
      <source>Play / pause (Space)</source>
      <translation>播放 / 暂停（空格）</translation>
    </message>
    <message>
      <source>Next event (Right or J)</source>
      <translation>下一个事件（→ 或 J）</translation>
    </message>
    <message>
      <source>Next stage (Shift+Right or ])</source>
      <translation>下一阶段（Shift+→ 或 ]）</translation>
    </message>
    <message>
      <source>Last event (End)</source>
      <translation>最后一个事件（End）</translation>
    </message>
    <message>
      <source>Play speed: a multiple of the recorded timing (long waits shortened to 1.5 s), or a fixed pace per event</source>
      <translation>播放速度：按记录时间的倍数（长时间等待缩短为 1.5 秒），或每个事件固定间隔</translation>
    </message>
    <message>
      <source>Fit</source>
      <translation>适应</translation>
    </message>
    <message>
      <source>Summary</source>
      <translation>摘要</translation>
    </message>
    <message>
      <source>Show what this turn did beside the event</source>
      <translation>在事件旁显示本回合做了什么</translation>
    </message>
    <message>
      <source>Step through the turn with ← →, or click the timeline.</source>
      <translation>用 ← → 步进查看回合，或点击时间线。</translation>
    </message>
    <message>
      <source>Open in Main View</source>
      <translation>在主视图中打开</translation>
    </message>
    <message>
      <source>Show this request in the main request view, with the whole window's room (Ctrl+Return)</source>
      <translation>在主请求视图中显示此请求，使用整个窗口的空间（Ctrl+Return）</translation>
    </message>
    <message>
      <source>Next Event</source>
      <translation>下一个事件</translation>
    </message>
    <message>
      <source>Previous Event</source>
      <translation>上一个事件</translation>
    </message>
    <message>
      <source>Next Stage</source>
      <translation>下一阶段</translation>
    </message>
    <message>
      <source>Previous Stage</source>
      <translation>上一阶段</translation>
    </message>
    <message>
      <source>Play / Pause</source>
      <translation>播放 / 暂停</translation>
    </message>
    <message>
      <source>First Event</source>
      <translation>第一个事件</translation>
    </message>
    <message>
      <source>Last Event</source>
      <translation>最后一个事件</translation>
    </message>
    <message>
      <source>Zoom In on the Timeline</source>
      <translation>放大时间线</translation>
    </message>
    <message>
      <source>Zoom Out of the Timeline</source>
      <translation>缩小时间线</translation>
    </message>
    <message>
      <source>Fit the Turn in the Timeline</source>
      <translation>使回合适应时间线</translation>
    </message>
    <message>
      <source>Open Request in Main View</source>
      <translation>在主视图中打开请求</translation>
    </message>
    <message>
      <source>turn</source>
      <translation>回合</translation>
    </message>
    <message>
      <source>Loading the history this call saw…</source>
      <translation>正在加载此调用看到的历史…</translation>
    </message>
    <message>
      <source>State</source>
      <translation>状态</translation>
    </message>
    <message>
      <source>#</source>
      <translation>#</translation>
    </message>
    <message>
      <source>Turn</source>
      <translation>回合</translation>
    </message>
    <message>
      <source>Role</source>
      <translation>角色</translation>
    </message>
    <message>
      <source>Content</source>
      <translation>内容</translation>
    </message>
    <message>
      <source>No database is open.</source>
      <translation>没有打开数据库。</translation>
    </message>
    <message>
      <source>No turn shown</source>
      <translation>未显示回合</translation>
    </message>
    <message>
      <source>after stages</source>
      <translation>阶段之后</translation>
    </message>
    <message>
      <source>unknown event type</source>
      <translation>未知事件类型</translation>
    </message>
    <message>
      <source>History this call saw: {counts}</source>
      <translation>此调用看到的历史：{counts}</translation>
    </message>
    <message>
      <source>event {i} of {n} · {offset} · {where}</source>
      <translation>第 {i} / {n} 个事件 · {offset} · {where}</translation>
    </message>
    <message>
      <source>no journal rows</source>
      <translation>无日志行</translation>
    </message>
    <message>
      <source>{n} ms per event</source>
      <translation>每个事件 {n} 毫秒</translation>
    </message>
    <message>
      <source>Loading turn {id}…</source>
      <translation>正在加载回合 {id}…</translation>
    </message>
    <message>
      <source>Cannot show turn {id}: {reason}</source>
      <translation>无法显示回合 {id}：{reason}</translation>
    </message>
    <message>
      <source>{n} events · not started</source>
      <translation>{n} 个事件 · 未开始</translation>
    </message>
    <message>
      <source>window of {n} turns</source>
      <translation>{n} 个回合的窗口</translation>
    </message>
    <message>
      <source>{n} summaries sent</source>
      <translation>已发送 {n} 条摘要</translation>
    </message>
    <message>
      <source>retry of</source>
      <translation>重试自</translation>
    </message>
    <message>
      <source>No history: {reason}</source>
      <translation>无历史：{reason}</translation>
    </message>
    <message>
      <source>sent</source>
      <translation>已发送</translation>
    </message>
    <message>
      <source>current</source>
      <translation>当前</translation>
    </message>
    <message>
      <source>compacted</source>
      <translation>已压缩</translation>
    </message>
    <message>
      <source>outside window</source>
      <translation>窗口之外</translation>
    </message>
    <message>
      <source>pruned</source>
      <translation>已裁剪</translation>
    </message>
    <message>
      <source>not sent</source>
      <translation>未发送</translation>
    </message>
    <message>
      <source>— Text —</source>
      <translation>— 文本 —</translation>
    </message>
    <message>
      <source>— Input —</source>
      <translation>— 输入 —</translation>
    </message>
    <message>
      <source>— This row —</source>
      <translation>— 本行 —</translation>
    </message>
    <message>
      <source>Plugin</source>
      <translation>插件</translation>
    </message>
    <message>
      <source>Stage</source>
      <translation>阶段</translation>
    </message>
    <message>
      <source>Status</source>
      <translation>状态</translation>
    </message>
    <message>
      <source>Parallel group</source>
      <translation>并行组</translation>
    </message>
    <message>
      <source>Start</source>
      <translation>开始</translation>
    </message>
    <message>
      <source>End</source>
      <translation>结束</translation>
    </message>
    <message>
      <source>Duration</source>
      <translation>耗时</translation>
    </message>
    <message>
      <source>Model calls</source>
      <translation>模型调用</translation>
    </message>
    <message>
      <source>Tool calls</source>
      <translation>工具调用</translation>
    </message>
    <message>
      <source>Error</source>
      <translation>错误</translation>
    </message>
    <message>
      <source>Reason</source>
      <translation>原因</translation>
    </message>
    <message>
      <source>Step</source>
      <translation>步骤</translation>
    </message>
    <message>
      <source>Attempt</source>
      <translation>尝试</translation>
    </message>
    <message>
      <source>Model</source>
      <translation>模型</translation>
    </message>
    <message>
      <source>Provider</source>
      <translation>提供方</translation>
    </message>
    <message>
      <source>Queue wait</source>
      <translation>排队等待</translation>
    </message>
    <message>
      <source>Input tokens</source>
      <translation>输入 token</translation>
    </message>
    <message>
      <source>Cached tokens</source>
      <translation>缓存 token</translation>
    </message>
    <message>
      <source>Output tokens</source>
      <translation>输出 token</translation>
    </message>
    <message>
      <source>Finish reason</source>
      <translation>结束原因</translation>
    </message>
    <message>
      <source>Tools requested</source>
      <translation>请求的工具</translation>
    </message>
    <message>
      <source>Approval</source>
      <translation>审批</translation>
    </message>
    <message>
      <source>Input</source>
      <translation>输入</translation>
    </message>
    <message>
      <source>Output</source>
      <translation>输出</translation>
    </message>
    <message>
      <source>{n} failed</source>
      <translation>{n} 个失败</translation>
    </message>
    <message>
      <source>{n} skipped</source>
      <translation>{n} 个跳过</translation>
    </message>
    <message>
      <source>{n} deferred</source>
      <translation>{n} 个推迟</translation>
    </message>
    <message>
      <source>{n} suspended</source>
      <translation>{n} 个挂起</translation>
    </message>
    <message>
      <source>{calls} calls · input {input} (cached {cached}) · output {output}</source>
      <translation>{calls} 次调用 · 输入 {input}（缓存 {cached}）· 输出 {output}</translation>
    </message>
    <message>
      <source>(no text)</source>
      <translation>（无文本）</translation>
    </message>
    <message>
      <source>— Tool calls —</source>
      <translation>— 工具调用 —</translation>
    </message>
    <message>
      <source>(none recorded)</source>
      <translation>（未记录）</translation>
    </message>
    <message>
      <source>— Output —</source>
      <translation>— 输出 —</translation>
    </message>
    <message>
      <source>— Error —</source>
      <translation>— 错误 —</translation>
    </message>
    <message>
      <source>none (after stages)</source>
      <translation>无（阶段之后）</translation>
    </message>
    <message>
      <source>Model call</source>
      <translation>模型调用</translation>
    </message>
    <message>
      <source>Tool call</source>
      <translation>工具调用</translation>
    </message>
    <message>
      <source>{n} ran</source>
      <translation>{n} 个运行</translation>
    </message>
    <message>
      <source>{n} succeeded</source>
      <translation>{n} 个成功</translation>
    </message>
    <message>
      <source>${usd} input at list price</source>
      <translation>按标价计输入 ${usd}</translation>
    </message>
    <message>
      <source>Finish reason: {reason} · duration {duration}</source>
      <translation>结束原因：{reason} · 耗时 {duration}</translation>
    </message>
    <message>
      <source>no response</source>
      <translation>无响应</translation>
    </message>
    <message>
      <source>What this turn did</source>
      <translation>本回合做了什么</translation>
    </message>
    <message>
      <source>Runtimes</source>
      <translation>运行时</translation>
    </message>
    <message>
      <source>{n} retried</source>
      <translation>{n} 次重试</translation>
    </message>
    <message>
      <source>Tokens</source>
      <translation>Token</translation>
    </message>
    <message>
      <source>Usage: input {input} (cached {cached}, cache write {write}) · output {output}</source>
      <translation>用量：输入 {input}（缓存 {cached}，缓存写入 {write}）· 输出 {output}</translation>
    </message>
    <message>
      <source>Error: {error}</source>
      <translation>错误：{error}</translation>
    </message>
    <message>
      <source>Asked for by step {n}</source>
      <translation>由第 {n} 步请求</translation>
    </message>
    <message>
      <source>(no runtime id)</source>
      <translation>（无运行时 ID）</translation>
    </message>
    <message>
      <source>{n} calls without a price</source>
      <translation>{n} 次调用无价格</translation>
    </message>
    <message>
      <source>Cost</source>
      <translation>费用</translation>
    </message>
    <message>
      <source>no price known for these models</source>
      <translation>这些模型没有已知价格</translation>
    </message>
    <message>
      <source>Tool effects</source>
      <translation>工具效果</translation>
    </message>
    <message>
      <source>Player</source>
      <translation>玩家</translation>
    </message>
    <message>
      <source>Story</source>
      <translation>故事</translation>
    </message>
    <message>
      <source>this turn wrote no story</source>
      <translation>本回合没有写入故事</translation>
    </message>
    <message>
      <source>Retry</source>
      <translation>重试</translation>
    </message>
    <message>
      <source>re-ran {ids}</source>
      <translation>重新运行 {ids}</translation>
    </message>
    <message>
      <source>{n} results reused</source>
      <translation>复用了 {n} 个结果</translation>
    </message>
    <message>
      <source>stage</source>
      <translation>阶段</translation>
    </message>
    <message>
      <source>No turn loaded</source>
      <translation>未加载回合</translation>
    </message>
    <message>
      <source>no times recorded</source>
      <translation>未记录时间</translation>
    </message>
    <message>
      <source>success</source>
      <translation>成功</translation>
    </message>
    <message>
      <source>failed</source>
      <translation>失败</translation>
    </message>
    <message>
      <source>skipped</source>
      <translation>跳过</translation>
    </message>
    <message>
      <source>deferred</source>
      <translation>推迟</translation>
    </message>
    <message>
      <source>suspended</source>
      <translation>挂起</translation>
    </message>
    <message>
      <source>running</source>
      <translation>运行中</translation>
    </message>
    <message>
      <source>model call (step·attempt)</source>
      <translation>模型调用（步骤·尝试）</translation>
    </message>
    <message>
      <source>tool call</source>
      <translation>工具调用</translation>
    </message>
  </context>
  <context>
    <name>CacheDock</name>
    <message>
      <source>&amp;Cache Analysis</source>
      <translation>缓存分析(&amp;C)</translation>
    </message>
    <message>
      <source>Show where each request's cached prefix ends, per runtime and turn</source>
      <translation>按运行时和回合显示每个请求的缓存前缀在哪里结束</translation>
    </message>
    <message>
      <source>Cache Analysis</source>
      <translation>缓存分析</translation>
    </message>
  </context>
  <context>
    <name>GoToDialog</name>
    <message>
      <source>&amp;Go To…</source>
      <translation>转到(&amp;G)…</translation>
    </message>
    <message>
      <source>Select a request, turn or session by its id (or the start of one) or a turn number</source>
      <translation>按 ID（或其开头部分）或回合编号选择请求、回合或会话</translation>
    </message>
    <message>
      <source>Nothing in this database has an id starting “{text}”.</source>
      <translation>此数据库中没有 ID 以“{text}”开头的内容。</translation>
    </message>
    <message>
      <source>No database is open.</source>
      <translation>没有打开数据库。</translation>
    </message>
    <message>
      <source>Go To</source>
      <translation>转到</translation>
    </message>
    <message>
      <source>Request, turn or session id (or its start), or a turn number</source>
      <translation>请求、回合或会话的 ID（或其开头部分），或回合编号</translation>
    </message>
    <message>
      <source>The 8 characters a table shows are enough; #4 or 4 is the selected session's turn 4.</source>
      <translation>表格中显示的 8 个字符就足够；#4 或 4 表示所选会话的第 4 回合。</translation>
    </message>
    <message>
      <source>Go</source>
      <translation>转到</translation>
    </message>
    <message>
      <source>“{text}” is the start of several ids: {ids}. Type more of the id.</source>
      <translation>“{text}”是多个 ID 的开头：{ids}。请多输入几个字符。</translation>
    </message>
    <message>
      <source>The selected session has no turn {number}.</source>
      <translation>所选会话没有第 {number} 回合。</translation>
    </message>
    <message>
      <source>Another database was opened.</source>
      <translation>已打开另一个数据库。</translation>
    </message>
    <message>
      <source>{id} could not be shown in the navigator.</source>
      <translation>无法在导航栏中显示 {id}。</translation>
    </message>
  </context>
  <context>
    <name>MainWindow</name>
    <message>
      <source>read-only</source>
      <translation>只读</translation>
    </message>
    <message>
      <source>read-only, through a private copy</source>
      <translation>只读（通过私有副本）</translation>
    </message>
    <message>
      <source>read-only snapshot (immutable)</source>
      <translation>只读快照（不可变）</translation>
    </message>
    <message>
      <source>{sessions} sessions · {turns} turns · {executions} executions · {requests} requests</source>
      <translation>{sessions} 个会话 · {turns} 个回合 · {executions} 次执行 · {requests} 个请求</translation>
    </message>
    <message>
      <source>&amp;File</source>
      <translation>文件(&amp;F)</translation>
    </message>
    <message>
      <source>&amp;Open…</source>
      <translation>打开(&amp;O)…</translation>
    </message>
    <message>
      <source>Open a Covel database (covel.db)</source>
      <translation>打开 Covel 数据库（covel.db）</translation>
    </message>
    <message>
      <source>Open Database &amp;URL…</source>
      <translation>打开数据库 URL(&amp;U)…</translation>
    </message>
    <message>
      <source>Open a Covel store on a database server (PostgreSQL)</source>
      <translation>打开数据库服务器（PostgreSQL）上的 Covel 存储</translation>
    </message>
    <message>
      <source>Open &amp;Recent</source>
      <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
      <source>&amp;Reload</source>
      <translation>重新加载(&amp;R)</translation>
    </message>
    <message>
      <source>Read the database again, keeping the selection</source>
      <translation>重新读取数据库，并保留当前选择</translation>
    </message>
    <message>
      <source>&amp;Quit</source>
      <translation>退出(&amp;Q)</translation>
    </message>
    <message>
      <source>&amp;Edit</source>
      <translation>编辑(&amp;E)</translation>
    </message>
    <message>
      <source>&amp;Find…</source>
      <translation>查找(&amp;F)…</translation>
    </message>
    <message>
      <source>Search the prompts of all requests</source>
      <translation>在所有请求的提示词中搜索</translation>
    </message>
    <message>
      <source>&amp;Clear Filters</source>
      <translation>清除筛选(&amp;C)</translation>
    </message>
    <message>
      <source>&amp;View</source>
      <translation>视图(&amp;V)</translation>
    </message>
    <message>
      <source>&amp;Collapse All</source>
      <translation>全部折叠(&amp;C)</translation>
    </message>
    <message>
      <source>Show &amp;Overview</source>
      <translation>显示概览(&amp;O)</translation>
    </message>
    <message>
      <source>&amp;Tools</source>
      <translation>工具(&amp;T)</translation>
    </message>
    <message>
      <source>Context-&amp;Order Editor…</source>
      <translation>上下文顺序编辑器(&amp;O)…</translation>
    </message>
    <message>
      <source>Edit a writing-agent context-order table and see what each worker is sent</source>
      <translation>编辑写作代理的上下文顺序表，查看每个 worker 收到的内容</translation>
    </message>
    <message>
      <source>Prompt &amp;Blocks Editor…</source>
      <translation>提示词块编辑器(&amp;B)…</translation>
    </message>
    <message>
      <source>Author prompt blocks and templates (ChatLuna zones, Covel templates) with live diagnostics</source>
      <translation>编写提示词块与模板（ChatLuna 分区、Covel 模板），实时诊断</translation>
    </message>
    <message>
      <source>&amp;Help</source>
      <translation>帮助(&amp;H)</translation>
    </message>
    <message>
      <source>&amp;Keyboard Shortcuts</source>
      <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
      <source>List every keyboard shortcut of the window and its views</source>
      <translation>列出窗口及其各视图的所有键盘快捷键</translation>
    </message>
    <message>
      <source>&amp;About Prompt Inspector</source>
      <translation>关于 Prompt Inspector(&amp;A)</translation>
    </message>
    <message>
      <source>About &amp;Qt</source>
      <translation>关于 &amp;Qt</translation>
    </message>
    <message>
      <source>Open Covel Database</source>
      <translation>打开 Covel 数据库</translation>
    </message>
    <message>
      <source>SQLite databases (*.db *.sqlite *.sqlite3);;All files (*)</source>
      <translation>SQLite 数据库 (*.db *.sqlite *.sqlite3);;所有文件 (*)</translation>
    </message>
    <message>
      <source>Cannot open database</source>
      <translation>无法打开数据库</translation>
    </message>
    <message>
      <source>About Prompt Inspector</source>
      <translation>关于 Prompt Inspector</translation>
    </message>
    <message>
      <source>Connection restored</source>
      <translation>连接已恢复</translation>
    </message>
    <message>
      <source>No recent files</source>
      <translation>没有最近打开的文件</translation>
    </message>
    <message>
      <source>Clear Recent Files</source>
      <translation>清除最近文件</translation>
    </message>
    <message>
      <source>The previous selection is no longer in the database</source>
      <translation>之前选择的项目已不在数据库中</translation>
    </message>
    <message>
      <source>Cannot read the database</source>
      <translation>无法读取数据库</translation>
    </message>
    <message>
      <source>Opening {name}…</source>
      <translation>正在打开 {name}…</translation>
    </message>
    <message>
      <source>{name} — {app}</source>
      <translation>{name} — {app}</translation>
    </message>
    <message>
      <source>Opened {name}</source>
      <translation>已打开 {name}</translation>
    </message>
    <message>
      <source>Could not open {name}</source>
      <translation>无法打开 {name}</translation>
    </message>
    <message>
      <source>Opening…</source>
      <translation>正在打开…</translation>
    </message>
    <message>
      <source>&lt;h3&gt;Prompt Inspector {version}&lt;/h3&gt;&lt;p&gt;See exactly what the Covel role-play engine sent to a model, part by part, and why the prompt cache hit or missed.&lt;/p&gt;&lt;p&gt;Reads covel.db read-only. Qt {qt}, PySide6.&lt;/p&gt;</source>
      <translation>&lt;h3&gt;Prompt Inspector {version}&lt;/h3&gt;&lt;p&gt;逐段查看 Covel 角色扮演引擎发送给模型的确切内容，以及提示词缓存命中或未命中的原因。&lt;/p&gt;&lt;p&gt;以只读方式读取 covel.db。Qt {qt}，PySide6。&lt;/p&gt;</translation>
    </message>
    <message>
      <source>⚠ Connection lost — retrying every {seconds} s</source>
      <translation>⚠ 连接已断开——每 {seconds} 秒重试</translation>
    </message>
    <message>
      <source>Removed {count} missing file(s) from the recent list: {names}</source>
      <translation>已从最近文件列表中移除 {count} 个不存在的文件：{names}</translation>
    </message>
    <message>
      <source>Loading…</source>
      <translation>正在加载…</translation>
    </message>
    <message>
      <source>Working…</source>
      <translation>正在处理…</translation>
    </message>
    <message>
      <source>{path} could not be opened.</source>
      <translation>无法打开 {path}。</translation>
    </message>
  </context>
  <context>
    <name>Overview</name>
    <message>
      <source>yes</source>
      <translation>是</translation>
    </message>
    <message>
      <source>no</source>
      <translation>否</translation>
    </message>
    <message>
      <source>No database open</source>
      <translation>未打开数据库</translation>
    </message>
    <message>
      <source>Open a covel.db with File → Open (Ctrl+O), drop one on this window, or pick one from File → Open Recent.</source>
      <translation>通过“文件 → 打开”（Ctrl+O）打开 covel.db，或将文件拖放到此窗口，或从“文件 → 最近打开”中选择。</translation>
    </message>
    <message>
      <source>Select a session, turn, runtime or request in the navigator to see its details.</source>
      <translation>在导航栏中选择会话、回合、运行时或请求以查看详情。</translation>
    </message>
    <message>
      <source>File</source>
      <translation>文件</translation>
    </message>
    <message>
      <source>Opened</source>
      <translation>打开方式</translation>
    </message>
    <message>
      <source>Sessions</source>
      <translation>会话</translation>
    </message>
    <message>
      <source>Turns</source>
      <translation>回合</translation>
    </message>
    <message>
      <source>Executions</source>
      <translation>执行次数</translation>
    </message>
    <message>
      <source>Model requests</source>
      <translation>模型请求</translation>
    </message>
    <message>
      <source>Session</source>
      <translation>会话</translation>
    </message>
    <message>
      <source>Schema note</source>
      <translation>结构说明</translation>
    </message>
    <message>
      <source>Execution</source>
      <translation>执行</translation>
    </message>
    <message>
      <source>Session id</source>
      <translation>会话 ID</translation>
    </message>
    <message>
      <source>World</source>
      <translation>世界</translation>
    </message>
    <message>
      <source>World id</source>
      <translation>世界 ID</translation>
    </message>
    <message>
      <source>Locale</source>
      <translation>语言区域</translation>
    </message>
    <message>
      <source>Phase</source>
      <translation>阶段</translation>
    </message>
    <message>
      <source>Status</source>
      <translation>状态</translation>
    </message>
    <message>
      <source>Trace events</source>
      <translation>追踪事件</translation>
    </message>
    <message>
      <source>Created</source>
      <translation>创建时间</translation>
    </message>
    <message>
      <source>Updated</source>
      <translation>更新时间</translation>
    </message>
    <message>
      <source>Runtime</source>
      <translation>运行时</translation>
    </message>
    <message>
      <source>Execution {number}</source>
      <translation>执行 {number}</translation>
    </message>
    <message>
      <source>Turn id</source>
      <translation>回合 ID</translation>
    </message>
    <message>
      <source>Trace id</source>
      <translation>追踪 ID</translation>
    </message>
    <message>
      <source>Origin</source>
      <translation>来源</translation>
    </message>
    <message>
      <source>Commit status</source>
      <translation>提交状态</translation>
    </message>
    <message>
      <source>Started</source>
      <translation>开始时间</translation>
    </message>
    <message>
      <source>Ended</source>
      <translation>结束时间</translation>
    </message>
    <message>
      <source>Duration</source>
      <translation>耗时</translation>
    </message>
    <message>
      <source>Retry of</source>
      <translation>重试自</translation>
    </message>
    <message>
      <source>Retry scope</source>
      <translation>重试范围</translation>
    </message>
    <message>
      <source>Runtimes</source>
      <translation>运行时</translation>
    </message>
    <message>
      <source>(no runtime id)</source>
      <translation>（无运行时 ID）</translation>
    </message>
    <message>
      <source>Model request</source>
      <translation>模型请求</translation>
    </message>
    <message>
      <source>Runtime id</source>
      <translation>运行时 ID</translation>
    </message>
    <message>
      <source>Plugin</source>
      <translation>插件</translation>
    </message>
    <message>
      <source>Stage</source>
      <translation>阶段</translation>
    </message>
    <message>
      <source>Error</source>
      <translation>错误</translation>
    </message>
    <message>
      <source>Input tokens</source>
      <translation>输入 token</translation>
    </message>
    <message>
      <source>Cached tokens</source>
      <translation>缓存 token</translation>
    </message>
    <message>
      <source>Event id</source>
      <translation>事件 ID</translation>
    </message>
    <message>
      <source>Tool-loop step</source>
      <translation>工具循环步骤</translation>
    </message>
    <message>
      <source>Attempt</source>
      <translation>尝试次数</translation>
    </message>
    <message>
      <source>Model</source>
      <translation>模型</translation>
    </message>
    <message>
      <source>Provider</source>
      <translation>服务商</translation>
    </message>
    <message>
      <source>Protocol</source>
      <translation>协议</translation>
    </message>
    <message>
      <source>Transport attempts</source>
      <translation>传输尝试次数</translation>
    </message>
    <message>
      <source>Response event</source>
      <translation>响应事件</translation>
    </message>
    <message>
      <source>Finish reason</source>
      <translation>结束原因</translation>
    </message>
    <message>
      <source>Output tokens</source>
      <translation>输出 token</translation>
    </message>
    <message>
      <source>Cache-write tokens</source>
      <translation>缓存写入 token</translation>
    </message>
  </context>
  <context>
    <name>OpenUrlDialog</name>
    <message>
      <source>Open Database URL</source>
      <translation>打开数据库 URL</translation>
    </message>
    <message>
      <source>leave empty for none, ~/.pgpass or PGPASSWORD</source>
      <translation>无密码、使用 ~/.pgpass 或 PGPASSWORD 时留空</translation>
    </message>
    <message>
      <source>Remember the password in the system keyring</source>
      <translation>在系统钥匙串中记住密码</translation>
    </message>
    <message>
      <source>&amp;URL:</source>
      <translation>URL(&amp;U)：</translation>
    </message>
    <message>
      <source>&amp;Password:</source>
      <translation>密码(&amp;P)：</translation>
    </message>
    <message>
      <source>No system keyring is available: the password is not remembered</source>
      <translation>没有可用的系统钥匙串：不会记住密码</translation>
    </message>
    <message>
      <source>A Covel store in PostgreSQL, for example &lt;code&gt;{example}&lt;/code&gt;. Choose a schema with &lt;code&gt;?options=-csearch_path%3Dname&lt;/code&gt;. The connection only reads.</source>
      <translation>PostgreSQL 中的 Covel 存储，例如 &lt;code&gt;{example}&lt;/code&gt;。用 &lt;code&gt;?options=-csearch_path%3Dname&lt;/code&gt; 选择 schema。连接只读。</translation>
    </message>
  </context>
  <context>
    <name>ShortcutsDialog</name>
    <message>
      <source>Window</source>
      <translation>窗口</translation>
    </message>
    <message>
      <source>Trees and tables</source>
      <translation>树和表格</translation>
    </message>
    <message>
      <source>Keyboard Shortcuts</source>
      <translation>键盘快捷键</translation>
    </message>
    <message>
      <source>Filter by action or key…</source>
      <translation>按操作或按键筛选…</translation>
    </message>
    <message>
      <source>Action</source>
      <translation>操作</translation>
    </message>
    <message>
      <source>Shortcut</source>
      <translation>快捷键</translation>
    </message>
  </context>
  <context>
    <name>TurnDock</name>
    <message>
      <source>&amp;View</source>
      <translation>视图(&amp;V)</translation>
    </message>
    <message>
      <source>Turn &amp;Stepper</source>
      <translation>回合步进器(&amp;S)</translation>
    </message>
    <message>
      <source>Step through the selected turn event by event</source>
      <translation>逐个事件地步进查看所选回合</translation>
    </message>
    <message>
      <source>Step Through Selected &amp;Turns</source>
      <translation>步进查看所选回合(&amp;T)</translation>
    </message>
    <message>
      <source>Selecting a turn in the navigator opens it in the turn stepper</source>
      <translation>在导航器中选择回合时，在回合步进器中打开它</translation>
    </message>
  </context>
  <context>
    <name>BlockForm</name>
    <message>
      <source>(default)</source>
      <translation>（默认）</translation>
    </message>
    <message>
      <source>(none)</source>
      <translation>（无）</translation>
    </message>
    <message>
      <source>The system-zone band this block means to sit in; the order is checked against it</source>
      <translation>此块打算所在的系统区分带；会据此检查 order</translation>
    </message>
    <message>
      <source>Template</source>
      <translation>模板</translation>
    </message>
    <message>
      <source>Run the text through the template engine; otherwise braces are literal</source>
      <translation>用模板引擎处理文本；否则花括号按原样输出</translation>
    </message>
    <message>
      <source>Complete</source>
      <translation>独占</translation>
    </message>
    <message>
      <source>An exclusive system block: it replaces every other system block</source>
      <translation>独占系统块：取代系统区的其余所有块</translation>
    </message>
    <message>
      <source>plugin that registers it</source>
      <translation>注册它的插件</translation>
    </message>
    <message>
      <source>Id</source>
      <translation>ID</translation>
    </message>
    <message>
      <source>Zone</source>
      <translation>区</translation>
    </message>
    <message>
      <source>Order</source>
      <translation>顺序</translation>
    </message>
    <message>
      <source>Role</source>
      <translation>角色</translation>
    </message>
    <message>
      <source>Purpose</source>
      <translation>用途</translation>
    </message>
    <message>
      <source>Source</source>
      <translation>来源</translation>
    </message>
    <message>
      <source>Flags</source>
      <translation>标志</translation>
    </message>
  </context>
  <context>
    <name>ZonesBlocks</name>
    <message>
      <source>System zone</source>
      <translation>系统区</translation>
    </message>
    <message>
      <source>Context zone</source>
      <translation>上下文区</translation>
    </message>
    <message>
      <source>Input zone</source>
      <translation>输入区</translation>
    </message>
    <message>
      <source>Block</source>
      <translation>块</translation>
    </message>
    <message>
      <source>Order</source>
      <translation>顺序</translation>
    </message>
    <message>
      <source>Role</source>
      <translation>角色</translation>
    </message>
    <message>
      <source>Flags</source>
      <translation>标志</translation>
    </message>
    <message>
      <source>template</source>
      <translation>模板</translation>
    </message>
    <message>
      <source>complete</source>
      <translation>独占</translation>
    </message>
    <message>
      <source>(no id)</source>
      <translation>（无 ID）</translation>
    </message>
    <message>
      <source>{count} problem(s); first: {message}</source>
      <translation>{count} 个问题；第一个：{message}</translation>
    </message>
    <message>
      <source>purpose</source>
      <translation>用途</translation>
    </message>
    <message>
      <source>source</source>
      <translation>来源</translation>
    </message>
  </context>
  <context>
    <name>ZonesDocument</name>
    <message>
      <source>Typing</source>
      <translation>输入</translation>
    </message>
    <message>
      <source>Edit sample input</source>
      <translation>编辑示例输入</translation>
    </message>
    <message>
      <source>Edit environment</source>
      <translation>编辑环境</translation>
    </message>
    <message>
      <source>Change settings</source>
      <translation>更改设置</translation>
    </message>
    <message>
      <source>This document has no file yet; use Save As.</source>
      <translation>此文档还没有文件；请使用“另存为”。</translation>
    </message>
    <message>
      <source>Add variable</source>
      <translation>添加变量</translation>
    </message>
    <message>
      <source>Add block</source>
      <translation>添加块</translation>
    </message>
    <message>
      <source>Remove block {id}</source>
      <translation>删除块 {id}</translation>
    </message>
    <message>
      <source>Remove variable {name}</source>
      <translation>删除变量 {name}</translation>
    </message>
    <message>
      <source>Change {field}</source>
      <translation>更改 {field}</translation>
    </message>
    <message>
      <source>{path}: a ChatLuna preset is saved as a .yml file (ChatLuna loads .yml presets)</source>
      <translation>{path}：ChatLuna 预设须保存为 .yml 文件（ChatLuna 只加载 .yml 预设）</translation>
    </message>
  </context>
  <context>
    <name>PresetView</name>
    <message>
      <source>User input format</source>
      <translation>用户输入格式</translation>
    </message>
    <message>
      <source>Author's note</source>
      <translation>作者注</translation>
    </message>
    <message>
      <source>Lore {n}</source>
      <translation>世界书条目 {n}</translation>
    </message>
    <message>
      <source>What the user says</source>
      <translation>用户说的话</translation>
    </message>
    <message>
      <source>Prompt {n}</source>
      <translation>提示词 {n}</translation>
    </message>
    <message>
      <source>Block</source>
      <translation>块</translation>
    </message>
    <message>
      <source>Role / keywords</source>
      <translation>角色 / 关键词</translation>
    </message>
    <message>
      <source>Text</source>
      <translation>文本</translation>
    </message>
    <message>
      <source>Input:</source>
      <translation>输入：</translation>
    </message>
    <message>
      <source>prompt {n}</source>
      <translation>提示词 {n}</translation>
    </message>
    <message>
      <source>history {n}</source>
      <translation>历史 {n}</translation>
    </message>
    <message>
      <source>user input</source>
      <translation>用户输入</translation>
    </message>
    <message>
      <source>{n} message(s) in ChatLuna's order.</source>
      <translation>按 ChatLuna 的顺序共 {n} 条消息。</translation>
    </message>
    <message>
      <source>Author's note: inserted.</source>
      <translation>作者注：已插入。</translation>
    </message>
    <message>
      <source>Author's note: not inserted on this turn.</source>
      <translation>作者注：本轮未插入。</translation>
    </message>
    <message>
      <source>Content parts: shown, not editable here</source>
      <translation>内容分段：仅显示，此处不可编辑</translation>
    </message>
    <message>
      <source>lore entries {entries} · {position}</source>
      <translation>世界书条目 {entries} · {position}</translation>
    </message>
    <message>
      <source>Lore entries activated: {entries}.</source>
      <translation>已激活的世界书条目：{entries}。</translation>
    </message>
    <message>
      <source>author's note · {position}</source>
      <translation>作者注 · {position}</translation>
    </message>
    <message>
      <source>… ({n} more characters)</source>
      <translation>…（还有 {n} 个字符）</translation>
    </message>
  </context>
  <context>
    <name>ZonesPreview</name>
    <message>
      <source>What the user says; {prompt} in input blocks</source>
      <translation>用户说的话；即输入块里的 {prompt}</translation>
    </message>
    <message>
      <source>Turn to render (counted from 0): per-turn values and pinning apply</source>
      <translation>要渲染的回合（从 0 起）：按回合取值并应用固定（Pin）</translation>
    </message>
    <message>
      <source>The runtime body interpolated with the catalog's example values, as Covel renders it into the system prompt</source>
      <translation>用变量目录的示例值插值后的运行时正文，与 Covel 渲染进系统提示词的结果相同</translation>
    </message>
    <message>
      <source>system zone rendered</source>
      <translation>系统区已渲染</translation>
    </message>
    <message>
      <source>system zone reused (pinned)</source>
      <translation>系统区复用（已固定）</translation>
    </message>
    <message>
      <source>system zone reused + “environment updated” note</source>
      <translation>系统区复用 + “环境已更新”说明</translation>
    </message>
    <message>
      <source>system zone re-rendered</source>
      <translation>系统区重新渲染</translation>
    </message>
    <message>
      <source>system zone rendered again, unchanged</source>
      <translation>系统区再次渲染，内容未变</translation>
    </message>
    <message>
      <source>Sample input</source>
      <translation>示例输入</translation>
    </message>
    <message>
      <source>Turn</source>
      <translation>回合</translation>
    </message>
    <message>
      <source>Digest</source>
      <translation>摘要</translation>
    </message>
    <message>
      <source>Content digest</source>
      <translation>内容摘要</translation>
    </message>
    <message>
      <source>SHA-256 of the section names joined by newlines: it changes with the layout of the system zone, never with its text</source>
      <translation>以换行连接的 sectionNames 的 SHA-256：随系统区的布局变化，不随文本变化</translation>
    </message>
    <message>
      <source>SHA-256 of the system prefix (system text and prelude as JSON)</source>
      <translation>系统前缀（系统文本与前置消息的 JSON）的 SHA-256</translation>
    </message>
    <message>
      <source>environment updated note</source>
      <translation>“环境已更新”说明</translation>
    </message>
    <message>
      <source>(none)</source>
      <translation>（无）</translation>
    </message>
    <message>
      <source>Turn {turn}: {action}</source>
      <translation>第 {turn} 回合：{action}</translation>
    </message>
    <message>
      <source>section names</source>
      <translation>sectionNames</translation>
    </message>
    <message>
      <source>Assembly failed: {message}</source>
      <translation>装配失败：{message}</translation>
    </message>
    <message>
      <source>assembly failed</source>
      <translation>装配失败</translation>
    </message>
    <message>
      <source>system</source>
      <translation>系统</translation>
    </message>
    <message>
      <source>prelude</source>
      <translation>前置消息</translation>
    </message>
    <message>
      <source>context</source>
      <translation>上下文</translation>
    </message>
    <message>
      <source>input</source>
      <translation>输入</translation>
    </message>
    <message>
      <source>values</source>
      <translation>变量值</translation>
    </message>
    <message>
      <source>render warnings</source>
      <translation>渲染警告</translation>
    </message>
    <message>
      <source>{count} render warning(s)</source>
      <translation>{count} 条渲染警告</translation>
    </message>
  </context>
  <context>
    <name>ZonesProblems</name>
    <message>
      <source>Error</source>
      <translation>错误</translation>
    </message>
    <message>
      <source>Warning</source>
      <translation>警告</translation>
    </message>
    <message>
      <source>Info</source>
      <translation>提示</translation>
    </message>
    <message>
      <source>text</source>
      <translation>文本</translation>
    </message>
    <message>
      <source>order</source>
      <translation>顺序</translation>
    </message>
    <message>
      <source>id</source>
      <translation>ID</translation>
    </message>
    <message>
      <source>complete</source>
      <translation>独占</translation>
    </message>
    <message>
      <source>purpose</source>
      <translation>用途</translation>
    </message>
    <message>
      <source>variables</source>
      <translation>变量</translation>
    </message>
    <message>
      <source>environment</source>
      <translation>环境</translation>
    </message>
    <message>
      <source>Severity</source>
      <translation>严重性</translation>
    </message>
    <message>
      <source>Block</source>
      <translation>块</translation>
    </message>
    <message>
      <source>Where</source>
      <translation>位置</translation>
    </message>
    <message>
      <source>Code</source>
      <translation>代码</translation>
    </message>
    <message>
      <source>Problem</source>
      <translation>问题</translation>
    </message>
    <message>
      <source>ChatLuna throws here.</source>
      <translation>ChatLuna 在此会抛出异常。</translation>
    </message>
  </context>
  <context>
    <name>OrderRuler</name>
    <message>
      <source>identity</source>
      <translation>身份</translation>
    </message>
    <message>
      <source>deployment</source>
      <translation>部署约束</translation>
    </message>
    <message>
      <source>safety</source>
      <translation>安全</translation>
    </message>
    <message>
      <source>persona</source>
      <translation>人设</translation>
    </message>
    <message>
      <source>scene</source>
      <translation>设定与场景</translation>
    </message>
    <message>
      <source>world book</source>
      <translation>常驻世界书</translation>
    </message>
    <message>
      <source>examples</source>
      <translation>示例对话</translation>
    </message>
    <message>
      <source>tools</source>
      <translation>工具指引</translation>
    </message>
    <message>
      <source>capabilities</source>
      <translation>能力说明</translation>
    </message>
    <message>
      <source>platform</source>
      <translation>平台约束</translation>
    </message>
    <message>
      <source>No system blocks</source>
      <translation>没有系统块</translation>
    </message>
    <message>
      <source>no named band</source>
      <translation>不在命名分带内</translation>
    </message>
    <message>
      <source>Tied with another system block: registration order decides which comes first.</source>
      <translation>与另一个系统块顺序相同：由注册顺序决定先后。</translation>
    </message>
    <message>
      <source>order</source>
      <translation>顺序</translation>
    </message>
    <message>
      <source>band: {band}</source>
      <translation>分带：{band}</translation>
    </message>
    <message>
      <source>Outside the system range {lo}…{hi}.</source>
      <translation>超出系统区范围 {lo}…{hi}。</translation>
    </message>
  </context>
  <context>
    <name>TurnSimulator</name>
    <message>
      <source>How many turns to simulate; after the last per-turn value, the last one repeats</source>
      <translation>模拟多少个回合；按回合的值用完后重复最后一个</translation>
    </message>
    <message>
      <source>◀ Previous</source>
      <translation>◀ 上一回合</translation>
    </message>
    <message>
      <source>Previous turn (Alt+Left)</source>
      <translation>上一回合（Alt+Left）</translation>
    </message>
    <message>
      <source>Next ▶</source>
      <translation>下一回合 ▶</translation>
    </message>
    <message>
      <source>Next turn (Alt+Right)</source>
      <translation>下一回合（Alt+Right）</translation>
    </message>
    <message>
      <source>Turns</source>
      <translation>回合数</translation>
    </message>
    <message>
      <source>Turn</source>
      <translation>回合</translation>
    </message>
    <message>
      <source>System zone</source>
      <translation>系统区</translation>
    </message>
    <message>
      <source>Note</source>
      <translation>说明</translation>
    </message>
    <message>
      <source>Changed</source>
      <translation>变更</translation>
    </message>
    <message>
      <source>Digest</source>
      <translation>摘要</translation>
    </message>
    <message>
      <source>Content digest</source>
      <translation>内容摘要</translation>
    </message>
    <message>
      <source>System length</source>
      <translation>系统长度</translation>
    </message>
    <message>
      <source>Warnings</source>
      <translation>警告</translation>
    </message>
    <message>
      <source>Changed since the pinned values:</source>
      <translation>相对固定值的变更：</translation>
    </message>
    <message>
      <source>Note added to the context messages:</source>
      <translation>追加到上下文消息的说明：</translation>
    </message>
    <message>
      <source>{turns} turns: system zone rendered {rendered}×, “environment updated” note on {notes} turn(s), {digests} distinct system prefix(es)</source>
      <translation>{turns} 个回合：系统区渲染 {rendered} 次，{notes} 个回合追加“环境已更新”说明，{digests} 种不同的系统前缀</translation>
    </message>
    <message>
      <source>Turn {turn}: {action}</source>
      <translation>第 {turn} 回合：{action}</translation>
    </message>
    <message>
      <source>Digest: {digest}</source>
      <translation>摘要：{digest}</translation>
    </message>
    <message>
      <source>Content digest: {digest}</source>
      <translation>内容摘要：{digest}</translation>
    </message>
    <message>
      <source>Assembly failed: {message}</source>
      <translation>装配失败：{message}</translation>
    </message>
  </context>
  <context>
    <name>ZonesVariables</name>
    <message>
      <source>Add Variable</source>
      <translation>添加变量</translation>
    </message>
    <message>
      <source>Remove Variable</source>
      <translation>删除变量</translation>
    </message>
    <message>
      <source>Values are JSON; a string can be written bare. Grey cells come from the environment, the example or the last value repeated; clearing a turn's cell drops it and the turns after it.</source>
      <translation>值为 JSON；字符串可以不加引号。灰色单元格来自环境、示例值或重复的最后一个值；清空某回合的单元格会删去该回合及其后的值。</translation>
    </message>
    <message>
      <source>Mutable: changes during a session, so it may not enter the system zone</source>
      <translation>可变：会在会话中变化，因此不得进入系统区</translation>
    </message>
    <message>
      <source>Zones that may use it, comma-separated; empty: every zone</source>
      <translation>允许引用它的区，以逗号分隔；留空表示所有区</translation>
    </message>
    <message>
      <source>Argument names, comma-separated; a trailing ? makes one optional</source>
      <translation>参数名，以逗号分隔；末尾加 ? 表示可选</translation>
    </message>
    <message>
      <source>Dotted path read from each turn's environment when there are no values</source>
      <translation>没有 values 时，从每回合环境中读取的点分路径</translation>
    </message>
    <message>
      <source>Change example</source>
      <translation>更改示例值</translation>
    </message>
    <message>
      <source>Apply</source>
      <translation>应用</translation>
    </message>
    <message>
      <source>Apply the environment and settings (Ctrl+Enter)</source>
      <translation>应用环境与设置（Ctrl+Enter）</translation>
    </message>
    <message>
      <source>Revert</source>
      <translation>还原</translation>
    </message>
    <message>
      <source>“environment”: base, turns (one patch per turn) and contributors (patch, failTurns, error). “settings”: the choices the ChatLuna docs leave open (see the README).</source>
      <translation>“environment”：base、turns（每回合一个补丁）和 contributors（patch、failTurns、error）。“settings”：ChatLuna 文档未明确的选项（见 README）。</translation>
    </message>
    <message>
      <source>Applied.</source>
      <translation>已应用。</translation>
    </message>
    <message>
      <source>Mutable</source>
      <translation>可变</translation>
    </message>
    <message>
      <source>Zones</source>
      <translation>区</translation>
    </message>
    <message>
      <source>Args</source>
      <translation>参数</translation>
    </message>
    <message>
      <source>Env path</source>
      <translation>环境路径</translation>
    </message>
    <message>
      <source>Example</source>
      <translation>示例值</translation>
    </message>
    <message>
      <source>Description</source>
      <translation>描述</translation>
    </message>
    <message>
      <source>Rename variable</source>
      <translation>重命名变量</translation>
    </message>
    <message>
      <source>Edit description</source>
      <translation>编辑描述</translation>
    </message>
    <message>
      <source>Change zones</source>
      <translation>更改区</translation>
    </message>
    <message>
      <source>Change arguments</source>
      <translation>更改参数</translation>
    </message>
    <message>
      <source>Change environment path</source>
      <translation>更改环境路径</translation>
    </message>
    <message>
      <source>Clear turn values</source>
      <translation>清除回合值</translation>
    </message>
    <message>
      <source>Edited; Apply to use it.</source>
      <translation>已编辑；点“应用”后生效。</translation>
    </message>
    <message>
      <source>Expected an object with “environment” and “settings”.</source>
      <translation>应为包含“environment”和“settings”的对象。</translation>
    </message>
    <message>
      <source>environment</source>
      <translation>环境</translation>
    </message>
    <message>
      <source>Path</source>
      <translation>路径</translation>
    </message>
    <message>
      <source>Per turn</source>
      <translation>逐回合变化</translation>
    </message>
    <message>
      <source>Name</source>
      <translation>名称</translation>
    </message>
    <message>
      <source>no value on this turn</source>
      <translation>此回合没有值</translation>
    </message>
    <message>
      <source>A variable name is one word without spaces or braces.</source>
      <translation>变量名必须是一个不含空格和花括号的词。</translation>
    </message>
    <message>
      <source>Change mutable</source>
      <translation>更改可变标志</translation>
    </message>
    <message>
      <source>yes</source>
      <translation>是</translation>
    </message>
    <message>
      <source>Edit turn {n} value</source>
      <translation>编辑第 {n} 回合的值</translation>
    </message>
    <message>
      <source>Turn {n}</source>
      <translation>第 {n} 回合</translation>
    </message>
    <message>
      <source>Another variable is already called {name}.</source>
      <translation>已有另一个变量名为 {name}。</translation>
    </message>
    <message>
      <source>{zone} is not a zone; zones are system, context and input.</source>
      <translation>{zone} 不是区；区只有 system、context 和 input。</translation>
    </message>
    <message>
      <source>Not valid JSON: {error}</source>
      <translation>不是有效的 JSON：{error}</translation>
    </message>
    <message>
      <source>Changes between turns; instead: {instead}</source>
      <translation>每回合都会变化；改用：{instead}</translation>
    </message>
  </context>
  <context>
    <name>ZonesEditor</name>
    <message>
      <source>Prompt configs and ChatLuna presets (*.json *.yaml *.yml *.toml);;ChatLuna presets (*.yml *.yaml);;Covel templates (*.md *.covel *.covel.txt);;All files (*)</source>
      <translation>提示词配置和 ChatLuna 预设 (*.json *.yaml *.yml *.toml);;ChatLuna 预设 (*.yml *.yaml);;Covel 模板 (*.md *.covel *.covel.txt);;所有文件 (*)</translation>
    </message>
    <message>
      <source>Preview</source>
      <translation>预览</translation>
    </message>
    <message>
      <source>Turns</source>
      <translation>回合</translation>
    </message>
    <message>
      <source>Variables</source>
      <translation>变量</translation>
    </message>
    <message>
      <source>Environment</source>
      <translation>环境</translation>
    </message>
    <message>
      <source>Covel Variables</source>
      <translation>Covel 变量</translation>
    </message>
    <message>
      <source>Messages</source>
      <translation>消息</translation>
    </message>
    <message>
      <source>&amp;New Config</source>
      <translation>新建配置(&amp;N)</translation>
    </message>
    <message>
      <source>Start an empty prompt config</source>
      <translation>新建一个空的提示词配置</translation>
    </message>
    <message>
      <source>&amp;Open…</source>
      <translation>打开(&amp;O)…</translation>
    </message>
    <message>
      <source>Open a prompt config (JSON, YAML, TOML), a ChatLuna preset or a Covel template</source>
      <translation>打开提示词配置（JSON、YAML、TOML）、ChatLuna 预设或 Covel 模板</translation>
    </message>
    <message>
      <source>&amp;Save</source>
      <translation>保存(&amp;S)</translation>
    </message>
    <message>
      <source>Save in the format it was opened in</source>
      <translation>按打开时的格式保存</translation>
    </message>
    <message>
      <source>Save &amp;As…</source>
      <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
      <source>&amp;Close</source>
      <translation>关闭(&amp;C)</translation>
    </message>
    <message>
      <source>&amp;Undo</source>
      <translation>撤销(&amp;U)</translation>
    </message>
    <message>
      <source>&amp;Redo</source>
      <translation>重做(&amp;R)</translation>
    </message>
    <message>
      <source>Add &amp;System Block</source>
      <translation>添加系统块(&amp;S)</translation>
    </message>
    <message>
      <source>Add &amp;Context Block</source>
      <translation>添加上下文块(&amp;C)</translation>
    </message>
    <message>
      <source>Add &amp;Input Block</source>
      <translation>添加输入块(&amp;I)</translation>
    </message>
    <message>
      <source>&amp;Duplicate Block</source>
      <translation>复制块(&amp;D)</translation>
    </message>
    <message>
      <source>&amp;Remove Block</source>
      <translation>删除块(&amp;R)</translation>
    </message>
    <message>
      <source>&amp;Next Problem</source>
      <translation>下一个问题(&amp;N)</translation>
    </message>
    <message>
      <source>&amp;Previous Problem</source>
      <translation>上一个问题(&amp;P)</translation>
    </message>
    <message>
      <source>Next &amp;Turn</source>
      <translation>下一回合(&amp;T)</translation>
    </message>
    <message>
      <source>Previous T&amp;urn</source>
      <translation>上一回合(&amp;U)</translation>
    </message>
    <message>
      <source>Focus &amp;Template</source>
      <translation>转到模板(&amp;T)</translation>
    </message>
    <message>
      <source>Focus &amp;Blocks</source>
      <translation>转到块列表(&amp;B)</translation>
    </message>
    <message>
      <source>&amp;File</source>
      <translation>文件(&amp;F)</translation>
    </message>
    <message>
      <source>&amp;Edit</source>
      <translation>编辑(&amp;E)</translation>
    </message>
    <message>
      <source>&amp;Go</source>
      <translation>转到(&amp;G)</translation>
    </message>
    <message>
      <source>Main</source>
      <translation>主工具栏</translation>
    </message>
    <message>
      <source>Unsaved changes</source>
      <translation>未保存的更改</translation>
    </message>
    <message>
      <source>Open Prompt Config, ChatLuna Preset or Covel Template</source>
      <translation>打开提示词配置、ChatLuna 预设或 Covel 模板</translation>
    </message>
    <message>
      <source>Save As</source>
      <translation>另存为</translation>
    </message>
    <message>
      <source>Edit environment and settings</source>
      <translation>编辑环境与设置</translation>
    </message>
    <message>
      <source>This preset has no templates.</source>
      <translation>这个预设没有模板。</translation>
    </message>
    <message>
      <source>{block} ({id}) · {detail} — rendered with ChatLuna's renderer</source>
      <translation>{block}（{id}）· {detail} —— 用 ChatLuna 的渲染器渲染</translation>
    </message>
    <message>
      <source>content parts: shown, not editable here</source>
      <translation>内容分段：仅显示，此处不可编辑</translation>
    </message>
    <message>
      <source>{errors} error(s) · {warnings} warning(s) · {infos} note(s)</source>
      <translation>{errors} 个错误 · {warnings} 个警告 · {infos} 条提示</translation>
    </message>
    <message>
      <source>Cannot open</source>
      <translation>无法打开</translation>
    </message>
    <message>
      <source>Cannot save</source>
      <translation>无法保存</translation>
    </message>
    <message>
      <source>Saved {name}</source>
      <translation>已保存 {name}</translation>
    </message>
    <message>
      <source>Save the changes to {name}?</source>
      <translation>保存对 {name} 的更改吗？</translation>
    </message>
    <message>
      <source>{name} (sample)</source>
      <translation>{name}（示例）</translation>
    </message>
    <message>
      <source>{name}[*] — {app}</source>
      <translation>{name}[*] — {app}</translation>
    </message>
    <message>
      <source>Prompt Zones Editor</source>
      <translation>提示词分区编辑器</translation>
    </message>
    <message>
      <source>Change {field} of {id}</source>
      <translation>更改 {id} 的 {field}</translation>
    </message>
    <message>
      <source>Add {zone} block</source>
      <translation>添加 {zone} 块</translation>
    </message>
    <message>
      <source>Duplicate {id}</source>
      <translation>复制 {id}</translation>
    </message>
    <message>
      <source>Problems: {counts}  (F8: next, Shift+F8: previous)</source>
      <translation>问题：{counts}（F8：下一个，Shift+F8：上一个）</translation>
    </message>
    <message>
      <source>Covel template {name}: {{ variable }} paths are checked against Covel's variable catalog (right). The runtime body is part of the system prompt.</source>
      <translation>Covel 模板 {name}：{{ variable }} 路径按 Covel 的变量目录（右侧）检查。运行时正文是系统提示词的一部分。</translation>
    </message>
    <message>
      <source>{path} could not be written: {error}</source>
      <translation>无法写入 {path}：{error}</translation>
    </message>
  </context>
  <context>
    <name>CommandLine</name>
    <message>
      <source>cache_keys.options: expected an array of tables ([[cache_keys.options]])</source>
      <translation>cache_keys.options：应为表数组（[[cache_keys.options]]）</translation>
    </message>
    <message>
      <source>{where}: expected the table options ([[cache_keys.options]])</source>
      <translation>{where}：应为 options 表（[[cache_keys.options]]）</translation>
    </message>
    <message>
      <source>{where}: expected the keys protocols, field, drops, sources</source>
      <translation>{where}：应包含键 protocols、field、drops、sources</translation>
    </message>
    <message>
      <source>{where}: field (a string) and protocols (a list) are required</source>
      <translation>{where}：field（字符串）和 protocols（列表）为必填项</translation>
    </message>
    <message>
      <source>{where}.drops: expected a list of {levels}</source>
      <translation>{where}.drops：应为由 {levels} 组成的列表</translation>
    </message>
    <message>
      <source>{where}: expected an array of tables ([[model_limits]])</source>
      <translation>{where}：应为表数组（[[model_limits]]）</translation>
    </message>
    <message>
      <source>{where}: expected a table</source>
      <translation>{where}：应为表</translation>
    </message>
    <message>
      <source>{where}.{key}: unknown key (expected {keys})</source>
      <translation>{where}.{key}：未知键（应为 {keys}）</translation>
    </message>
    <message>
      <source>{where}.match: expected a non-empty list of glob patterns, got {value}</source>
      <translation>{where}.match：应为非空的 glob 模式列表，实际为 {value}</translation>
    </message>
    <message>
      <source>{where}.max_output_tokens: {output} is more than the context window {window} it shares</source>
      <translation>{where}.max_output_tokens：{output} 超过了它所共用的上下文窗口 {window}</translation>
    </message>
    <message>
      <source>{where}.max_input_tokens: expected a whole number, 1 or more and at most the context window, got {value}</source>
      <translation>{where}.max_input_tokens：应为不小于 1 且不超过上下文窗口的整数，实际为 {value}</translation>
    </message>
    <message>
      <source>{where}.output_in_window: expected true or false, got {value}</source>
      <translation>{where}.output_in_window：应为 true 或 false，实际为 {value}</translation>
    </message>
    <message>
      <source>{where}.source: missing (the page or document both numbers come from)</source>
      <translation>{where}.source：缺失（两个数字所出自的页面或文档）</translation>
    </message>
    <message>
      <source>{where}.checked: expected a day (YYYY-MM-DD), got {value}</source>
      <translation>{where}.checked：应为日期（YYYY-MM-DD），实际为 {value}</translation>
    </message>
    <message>
      <source>{where}.notes: expected a string, got {value}</source>
      <translation>{where}.notes：应为字符串，实际为 {value}</translation>
    </message>
    <message>
      <source>{where}.{key}: expected a whole number, 1 or more, got {value}</source>
      <translation>{where}.{key}：应为不小于 1 的整数，实际为 {value}</translation>
    </message>
    <message>
      <source>a string</source>
      <translation>字符串</translation>
    </message>
    <message>
      <source>a list of strings</source>
      <translation>字符串列表</translation>
    </message>
    <message>
      <source>a non-empty list of glob patterns</source>
      <translation>非空的 glob 模式列表</translation>
    </message>
    <message>
      <source>a whole number, 0 or more</source>
      <translation>不小于 0 的整数</translation>
    </message>
    <message>
      <source>a whole number, 1 or more</source>
      <translation>不小于 1 的整数</translation>
    </message>
    <message>
      <source>a number, 0 or more</source>
      <translation>不小于 0 的数字</translation>
    </message>
    <message>
      <source>a number above 0</source>
      <translation>大于 0 的数字</translation>
    </message>
    <message>
      <source>one of {choices}</source>
      <translation>取值之一（{choices}）</translation>
    </message>
    <message>
      <source>a table of names to numbers, 0 or more</source>
      <translation>由名称映射到不小于 0 的数字的表</translation>
    </message>
    <message>
      <source>a table of names to numbers above 0</source>
      <translation>由名称映射到大于 0 的数字的表</translation>
    </message>
    <message>
      <source>a table of rule keys to tables of source, checked, contested, alternatives, why</source>
      <translation>由规则键映射到表（含 source、checked、contested、alternatives、why）的表</translation>
    </message>
    <message>
      <source>an array of tables of from, until, input_price_per_mtok, read_multiplier, source, checked</source>
      <translation>由含 from、until、input_price_per_mtok、read_multiplier、source、checked 的表组成的表数组</translation>
    </message>
    <message>
      <source>{where}{key}: unknown key</source>
      <translation>{where}{key}：未知键</translation>
    </message>
    <message>
      <source>{where}{key}: unknown key; did you mean {close}?</source>
      <translation>{where}{key}：未知键；你是否想写 {close}？</translation>
    </message>
    <message>
      <source>schema: this version reads schema {version}, the file says {value}</source>
      <translation>schema：本版本读取 schema {version}，而文件写的是 {value}</translation>
    </message>
    <message>
      <source>default_family: expected a string, got {value}</source>
      <translation>default_family：应为字符串，实际为 {value}</translation>
    </message>
    <message>
      <source>families: expected a table of families</source>
      <translation>families：应为包含各系列的表</translation>
    </message>
    <message>
      <source>{where}step_tokens: missing (needed by granularity "step")</source>
      <translation>{where}step_tokens：缺失（granularity "step" 需要它）</translation>
    </message>
    <message>
      <source>{where}routing_prefix_tokens: missing (needed by overflow_requests_per_minute)</source>
      <translation>{where}routing_prefix_tokens：缺失（overflow_requests_per_minute 需要它）</translation>
    </message>
    <message>
      <source>… and {count} more</source>
      <translation>……还有 {count} 条</translation>
    </message>
    <message>
      <source>default_family: missing</source>
      <translation>default_family：缺失</translation>
    </message>
    <message>
      <source>{where}models: expected an array of tables ([[families.{name}.models]])</source>
      <translation>{where}models：应为表数组（[[families.{name}.models]]）</translation>
    </message>
    <message>
      <source>{where}{key}: missing (needed by every family)</source>
      <translation>{where}{key}：缺失（每个系列都需要它）</translation>
    </message>
    <message>
      <source>{where}granularity: mode "explicit" needs granularity "breakpoints", got {value}</source>
      <translation>{where}granularity：mode "explicit" 需要 granularity "breakpoints"，实际为 {value}</translation>
    </message>
    <message>
      <source>{where}granularity: "breakpoints" needs mode "explicit"</source>
      <translation>{where}granularity："breakpoints" 需要 mode "explicit"</translation>
    </message>
    <message>
      <source>{path}: no such rules file</source>
      <translation>{path}：没有这个规则文件</translation>
    </message>
    <message>
      <source>{path}: cannot be read: {error}</source>
      <translation>{path}：无法读取：{error}</translation>
    </message>
    <message>
      <source>{path}: not UTF-8 text ({reason} at byte {offset})</source>
      <translation>{path}：不是 UTF-8 文本（第 {offset} 字节处：{reason}）</translation>
    </message>
    <message>
      <source>{path}: not valid TOML: {problem}</source>
      <translation>{path}：不是有效的 TOML：{problem}</translation>
    </message>
    <message>
      <source>families: no family defined</source>
      <translation>families：未定义任何系列</translation>
    </message>
    <message>
      <source>default_family: {value} is not one of the families ({families})</source>
      <translation>default_family：{value} 不是已定义的系列之一（{families}）</translation>
    </message>
    <message>
      <source>{where}{key}: expected {what}, got {value}</source>
      <translation>{where}{key}：应为{what}，实际为 {value}</translation>
    </message>
    <message>
      <source>{where}match: missing (a list of glob patterns on the model id)</source>
      <translation>{where}match：缺失（匹配模型 ID 的 glob 模式列表）</translation>
    </message>
    <message>
      <source>{where}{key}: missing (needed by mode "explicit")</source>
      <translation>{where}{key}：缺失（mode "explicit" 需要它）</translation>
    </message>
    <message>
      <source>{path}: invalid rules:</source>
      <translation>{path}：规则无效：</translation>
    </message>
    <message>
      <source>no command given: `{program} --help` lists them; `{program}` without one starts the desktop app</source>
      <translation>没有给出命令：`{program} --help` 会列出所有命令；不带命令的 `{program}` 会启动桌面应用</translation>
    </message>
    <message>
      <source>cannot write {path}: the file exists and is not a demo database; choose another file or pass --force to replace it</source>
      <translation>无法写入 {path}：该文件已存在，且不是演示数据库；请另选文件，或加上 --force 替换它</translation>
    </message>
    <message>
      <source>{message} (or pass --force to replace it)</source>
      <translation>{message}（或加上 --force 替换它）</translation>
    </message>
    <message>
      <source>turn {turn} is not a turn of session {session} in {where}</source>
      <translation>{where} 中的回合 {turn} 不属于会话 {session}</translation>
    </message>
    <message>
      <source>no request {id} in {db}</source>
      <translation>{db} 中没有请求 {id}</translation>
    </message>
    <message>
      <source>no turn {id} in {db}</source>
      <translation>{db} 中没有回合 {id}</translation>
    </message>
    <message>
      <source>the output file name is empty</source>
      <translation>输出文件名为空</translation>
    </message>
    <message>
      <source>cannot write {name}: it is a folder; name a file to write</source>
      <translation>无法写入 {name}：它是文件夹；请指定要写入的文件</translation>
    </message>
    <message>
      <source>{name} cannot be read: {error}</source>
      <translation>无法读取 {name}：{error}</translation>
    </message>
    <message>
      <source>cannot write {name}: {reason}</source>
      <translation>无法写入 {name}：{reason}</translation>
    </message>
    <message>
      <source>cannot write {name}: it is the input {source}; choose another output file</source>
      <translation>无法写入 {name}：它就是输入 {source}；请另选输出文件</translation>
    </message>
    <message>
      <source>cannot write {name}: SQLite keeps a file of that name beside the input {source}; choose another output file</source>
      <translation>无法写入 {name}：SQLite 会在输入 {source} 旁边保留同名文件；请另选输出文件</translation>
    </message>
    <message>
      <source>cannot write {name}: it is a SQLite database, which this command does not overwrite; choose another output file</source>
      <translation>无法写入 {name}：它是 SQLite 数据库，本命令不会覆盖它；请另选输出文件</translation>
    </message>
    <message>
      <source>session</source>
      <translation>会话</translation>
    </message>
    <message>
      <source>turn</source>
      <translation>回合</translation>
    </message>
    <message>
      <source>request</source>
      <translation>请求</translation>
    </message>
    <message>
      <source>trace event</source>
      <translation>追踪事件</translation>
    </message>
    <message>
      <source>request, turn or session</source>
      <translation>请求、回合或会话</translation>
    </message>
    <message>
      <source>no {kind} {text} in {where} (an id or the start of one)</source>
      <translation>{where} 中没有{kind} {text}（一个 ID 或其开头部分）</translation>
    </message>
    <message>
      <source>no {kind} {text} (an id or the start of one)</source>
      <translation>没有{kind} {text}（一个 ID 或其开头部分）</translation>
    </message>
    <message>
      <source>{kind} id {text} is ambiguous in {where}: {ids} all start with it; give more of the id</source>
      <translation>{where} 中的{kind} ID {text} 有歧义：{ids} 都以它开头；请给出更多 ID 字符</translation>
    </message>
    <message>
      <source>{kind} id {text} is ambiguous: {ids} all start with it; give more of the id</source>
      <translation>{kind} ID {text} 有歧义：{ids} 都以它开头；请给出更多 ID 字符</translation>
    </message>
    <message>
      <source>{name} is not a regular file: give the path of a file</source>
      <translation>{name} 不是普通文件：请给出文件的路径</translation>
    </message>
    <message>
      <source>{name} is a named pipe (FIFO), not a regular file: give the path of a file</source>
      <translation>{name} 是命名管道（FIFO），不是普通文件：请给出文件的路径</translation>
    </message>
    <message>
      <source>{name} is a socket, not a regular file: give the path of a file</source>
      <translation>{name} 是套接字，不是普通文件：请给出文件的路径</translation>
    </message>
    <message>
      <source>{name} is a device, not a regular file: give the path of a file</source>
      <translation>{name} 是设备，不是普通文件：请给出文件的路径</translation>
    </message>
    <message>
      <source>{name} is a directory, not a file</source>
      <translation>{name} 是目录，不是文件</translation>
    </message>
    <message>
      <source>{name} does not exist</source>
      <translation>{name} 不存在</translation>
    </message>
    <message>
      <source>Check the user name and password in the URL (or PGPASSWORD / ~/.pgpass).</source>
      <translation>请检查 URL 中的用户名和密码（或 PGPASSWORD / ~/.pgpass）。</translation>
    </message>
    <message>
      <source>{location}: waited too long for a lock ({reason}); try again in a moment</source>
      <translation>{location}：等待锁的时间过长（{reason}）；请稍后再试</translation>
    </message>
    <message>
      <source>{location}: {reason}. The user needs SELECT on Covel's tables.</source>
      <translation>{location}：{reason}。该用户需要 Covel 各表的 SELECT 权限。</translation>
    </message>
    <message>
      <source>{location}: {server} has no database named {name}</source>
      <translation>{location}：{server} 上没有名为 {name} 的数据库</translation>
    </message>
    <message>
      <source>{location}: {server} refused the credentials of user {user} ({reason}).</source>
      <translation>{location}：{server} 拒绝了用户 {user} 的凭据（{reason}）。</translation>
    </message>
    <message>
      <source>{location}: {server} refused the credentials of the user ({reason}).</source>
      <translation>{location}：{server} 拒绝了该用户的凭据（{reason}）。</translation>
    </message>
    <message>
      <source>{location}: cannot connect to {server}: connection refused. Is PostgreSQL running there and accepting TCP/IP connections on that port?</source>
      <translation>{location}：无法连接到 {server}：连接被拒绝。PostgreSQL 是否在那里运行，并在该端口接受 TCP/IP 连接？</translation>
    </message>
    <message>
      <source>{location}: cannot connect: the host name {host} is not known ({reason})</source>
      <translation>{location}：无法连接：主机名 {host} 未知（{reason}）</translation>
    </message>
    <message>
      <source>{location}: cannot connect to {server}: no answer within the connection timeout ({reason})</source>
      <translation>{location}：无法连接到 {server}：在连接超时内没有应答（{reason}）</translation>
    </message>
    <message>
      <source>{location}: cannot connect to {server}: no server is listening on its socket ({reason})</source>
      <translation>{location}：无法连接到 {server}：它的套接字上没有服务器在监听（{reason}）</translation>
    </message>
    <message>
      <source>{location}: cannot talk to {server} ({reason})</source>
      <translation>{location}：无法与 {server} 通信（{reason}）</translation>
    </message>
    <message>
      <source>{location}: the file is damaged ({message}); `sqlite3 -readonly {target} .recover | sqlite3 recovered.db` can salvage what is left into a new file (-readonly: the damaged file is not written)</source>
      <translation>{location}：文件已损坏（{message}）；`sqlite3 -readonly {target} .recover | sqlite3 recovered.db` 可以把剩下的内容抢救到一个新文件中（-readonly：不会写入损坏的文件）</translation>
    </message>
    <message>
      <source>{location} is locked by another process ({message}; waited {seconds} s). Covel is probably writing; try again in a moment.</source>
      <translation>{location} 被另一个进程锁定（{message}；已等待 {seconds} 秒）。Covel 可能正在写入；请稍后再试。</translation>
    </message>
    <message>
      <source>{location} is not a SQLite database ({message})</source>
      <translation>{location} 不是 SQLite 数据库（{message}）</translation>
    </message>
    <message>
      <source>{location}: {backend} is not a Covel store backend; give the path of covel.db, a sqlite:/// URL or a postgresql:// URL</source>
      <translation>{location}：{backend} 不是 Covel 存储的后端；请给出 covel.db 的路径、sqlite:/// URL 或 postgresql:// URL</translation>
    </message>
    <message>
      <source>cannot open {location}: {reason}</source>
      <translation>无法打开 {location}：{reason}</translation>
    </message>
    <message>
      <source>cannot open {location}: {reason}; the PostgreSQL driver that comes with Prompt Inspector is psycopg: use postgresql://</source>
      <translation>无法打开 {location}：{reason}；Prompt Inspector 自带的 PostgreSQL 驱动是 psycopg：请使用 postgresql://</translation>
    </message>
    <message>
      <source>{location}: the connection could not be made read-only, so it was not used</source>
      <translation>{location}：无法把连接设为只读，因此没有使用它</translation>
    </message>
    <message>
      <source>{location} kept changing while it was being opened (Covel is starting or stopping?); try again in a moment</source>
      <translation>{location} 在打开过程中一直在变化（Covel 正在启动或停止？）；请稍后再试</translation>
    </message>
    <message>
      <source>{location}: an in-memory SQLite database has no Covel store; give the path of covel.db (sqlite:///path/to/covel.db)</source>
      <translation>{location}：内存中的 SQLite 数据库没有 Covel 存储；请给出 covel.db 的路径（sqlite:///path/to/covel.db）</translation>
    </message>
    <message>
      <source>{path} is empty (0 bytes): not a Covel store</source>
      <translation>{path} 是空文件（0 字节）：不是 Covel 存储</translation>
    </message>
    <message>
      <source>{path} is not a SQLite database</source>
      <translation>{path} 不是 SQLite 数据库</translation>
    </message>
    <message>
      <source>{location} needs a private copy to be read without writing beside it ({need} MiB), but only {free} MiB are free in {folder}; free some space, or open the store while Covel runs</source>
      <translation>{location} 需要一份私有副本才能在不往旁边写文件的情况下读取（{need} MiB），但 {folder} 中只有 {free} MiB 可用；请腾出一些空间，或在 Covel 运行时打开该存储</translation>
    </message>
    <message>
      <source>{location}: the option {key}={value} is refused, because it could write to the database or is not known; Prompt Inspector only reads. Allowed: {allowed}</source>
      <translation>{location}：拒绝选项 {key}={value}，因为它可能写入数据库或未知；Prompt Inspector 只读取。允许的选项：{allowed}</translation>
    </message>
    <message>
      <source>{location}: timeout={value} is not a number of seconds between 0 and 3600</source>
      <translation>{location}：timeout={value} 不是 0 到 3600 之间的秒数</translation>
    </message>
    <message>
      <source>{location}: a file: URI names a file on this machine; {host} is another host</source>
      <translation>{location}：file: URI 指的是本机上的文件；{host} 是另一台主机</translation>
    </message>
    <message>
      <source>{location} needs a private copy to be read without writing beside it, but the cache folder {folder} cannot be used: {error}</source>
      <translation>{location} 需要一份私有副本才能在不往旁边写文件的情况下读取，但缓存文件夹 {folder} 无法使用：{error}</translation>
    </message>
    <message>
      <source>{location}: the private copy could not be made ({error})</source>
      <translation>{location}：无法制作私有副本（{error}）</translation>
    </message>
    <message>
      <source>{location}: its private copy could not be brought to the last committed state ({error})</source>
      <translation>{location}：无法把它的私有副本恢复到最后一次提交的状态（{error}）</translation>
    </message>
    <message>
      <source>{path} is a directory, not a database file</source>
      <translation>{path} 是目录，不是数据库文件</translation>
    </message>
    <message>
      <source>a database URL looks like postgresql://user@host:5432/database</source>
      <translation>数据库 URL 的形式如 postgresql://user@host:5432/database</translation>
    </message>
    <message>
      <source>not a database URL: {reason}</source>
      <translation>不是数据库 URL：{reason}</translation>
    </message>
    <message>
      <source>Turn started</source>
      <translation>回合开始</translation>
    </message>
    <message>
      <source>Turn completed</source>
      <translation>回合完成</translation>
    </message>
    <message>
      <source>Turn failed</source>
      <translation>回合失败</translation>
    </message>
    <message>
      <source>Turn suspended</source>
      <translation>回合挂起</translation>
    </message>
    <message>
      <source>Turn resumed</source>
      <translation>回合恢复</translation>
    </message>
    <message>
      <source>Execution started</source>
      <translation>执行开始</translation>
    </message>
    <message>
      <source>Execution completed</source>
      <translation>执行完成</translation>
    </message>
    <message>
      <source>Runtime started</source>
      <translation>运行时开始</translation>
    </message>
    <message>
      <source>Runtime progress</source>
      <translation>运行时进度</translation>
    </message>
    <message>
      <source>Runtime completed</source>
      <translation>运行时完成</translation>
    </message>
    <message>
      <source>Runtime failed</source>
      <translation>运行时失败</translation>
    </message>
    <message>
      <source>Runtime skipped</source>
      <translation>运行时跳过</translation>
    </message>
    <message>
      <source>Runtime deferred</source>
      <translation>运行时推迟</translation>
    </message>
    <message>
      <source>Model call</source>
      <translation>模型调用</translation>
    </message>
    <message>
      <source>Model response</source>
      <translation>模型响应</translation>
    </message>
    <message>
      <source>Tool call</source>
      <translation>工具调用</translation>
    </message>
    <message>
      <source>Tool result</source>
      <translation>工具结果</translation>
    </message>
    <message>
      <source>Tool failed</source>
      <translation>工具失败</translation>
    </message>
    <message>
      <source>Message written</source>
      <translation>消息写出</translation>
    </message>
    <message>
      <source>History pruned</source>
      <translation>历史已裁剪</translation>
    </message>
    <message>
      <source>History compacted</source>
      <translation>历史已压缩</translation>
    </message>
    <message>
      <source>Hook ran</source>
      <translation>钩子运行</translation>
    </message>
    <message>
      <source>Hook rewrote the request</source>
      <translation>钩子改写了请求</translation>
    </message>
    <message>
      <source>Hook aborted</source>
      <translation>钩子中止</translation>
    </message>
    <message>
      <source>Proposal failed</source>
      <translation>提案失败</translation>
    </message>
    <message>
      <source>Block emitted</source>
      <translation>块已输出</translation>
    </message>
    <message>
      <source>UI rendered</source>
      <translation>界面已渲染</translation>
    </message>
    <message>
      <source>State patch applied</source>
      <translation>状态补丁已应用</translation>
    </message>
    <message>
      <source>Domain event previewed</source>
      <translation>领域事件已预览</translation>
    </message>
    <message>
      <source>Gateway call</source>
      <translation>网关调用</translation>
    </message>
    <message>
      <source>Gateway response</source>
      <translation>网关响应</translation>
    </message>
    <message>
      <source>Gateway call failed</source>
      <translation>网关调用失败</translation>
    </message>
    <message>
      <source>Fetch</source>
      <translation>抓取</translation>
    </message>
    <message>
      <source>Fetch response</source>
      <translation>抓取响应</translation>
    </message>
    <message>
      <source>Fetch failed</source>
      <translation>抓取失败</translation>
    </message>
    <message>
      <source>Function running</source>
      <translation>函数运行中</translation>
    </message>
    <message>
      <source>Function completed</source>
      <translation>函数完成</translation>
    </message>
    <message>
      <source>Nested call</source>
      <translation>嵌套调用</translation>
    </message>
    <message>
      <source>Nested call completed</source>
      <translation>嵌套调用完成</translation>
    </message>
    <message>
      <source>Nested call failed</source>
      <translation>嵌套调用失败</translation>
    </message>
    <message>
      <source>Command invoked</source>
      <translation>命令调用</translation>
    </message>
    <message>
      <source>Command completed</source>
      <translation>命令完成</translation>
    </message>
    <message>
      <source>Command failed</source>
      <translation>命令失败</translation>
    </message>
    <message>
      <source>Asset progress</source>
      <translation>资源进度</translation>
    </message>
    <message>
      <source>Asset generated</source>
      <translation>资源已生成</translation>
    </message>
    <message>
      <source>Job status updated</source>
      <translation>任务状态已更新</translation>
    </message>
    <message>
      <source>no slot {slot} in the order (slots: {known}) and no contextSegments for it</source>
      <translation>排序中没有槽 {slot}（已有槽：{known}），它也没有 contextSegments</translation>
    </message>
    <message>
      <source>cannot read {path}: {reason}</source>
      <translation>无法读取 {path}：{reason}</translation>
    </message>
    <message>
      <source>{path} is not UTF-8 text</source>
      <translation>{path} 不是 UTF-8 文本</translation>
    </message>
    <message>
      <source>--apply {op} is not JSON: {error}</source>
      <translation>--apply {op} 不是 JSON：{error}</translation>
    </message>
    <message>
      <source>action must be move | set_anchor | set_projection | replace</source>
      <translation>action 须为 move | set_anchor | set_projection | replace</translation>
    </message>
    <message>
      <source>insert index out of range</source>
      <translation>插入项下标越界</translation>
    </message>
    <message>
      <source>context_order cannot be parsed</source>
      <translation>context_order 无法解析</translation>
    </message>
    <message>
      <source>move needs slotRef, index, delta(±1)</source>
      <translation>move 需要 slotRef、index、delta(±1)</translation>
    </message>
    <message>
      <source>set_anchor needs slotRef, index, anchor(pre_history|post_history)</source>
      <translation>set_anchor 需要 slotRef、index、anchor(pre_history|post_history)</translation>
    </message>
    <message>
      <source>set_projection needs slotRef, index, projection</source>
      <translation>set_projection 需要 slotRef、index、projection</translation>
    </message>
    <message>
      <source>no context projection order to edit yet; finish the play topology / final refinement first, or submit a complete replace</source>
      <translation>尚无上下文投影排序可编辑；请先完成游玩拓扑/细化终稿，或提交完整 replace</translation>
    </message>
    <message>
      <source>slot {ref} not found</source>
      <translation>未找到槽 {ref}</translation>
    </message>
    <message>
      <source>设计.worker集 cannot be parsed as JSON</source>
      <translation>设计.worker集 无法解析为 JSON</translation>
    </message>
    <message>
      <source>drop position {dest} is outside 0..{count}</source>
      <translation>放置位置 {dest} 超出 0..{count}</translation>
    </message>
    <message>
      <source>an insert needs a ref (a blackboard tag, worker.persona or 对话.历史)</source>
      <translation>插入项需要 ref（黑板标签、worker.persona 或 对话.历史）</translation>
    </message>
    <message>
      <source>a ref cannot be empty; remove the insert instead</source>
      <translation>ref 不能为空；如不需要，请删除该插入项</translation>
    </message>
    <message>
      <source>{where} must map names to policy strings</source>
      <translation>{where} 必须是名称到策略字符串的映射</translation>
    </message>
    <message>
      <source>{where} must be a list of contextSegments rows</source>
      <translation>{where} 必须是 contextSegments 行的列表</translation>
    </message>
    <message>
      <source>{where}.{key} must be text</source>
      <translation>{where}.{key} 必须是文本</translation>
    </message>
    <message>
      <source>{where} must be a mapping</source>
      <translation>{where} 必须是映射</translation>
    </message>
    <message>
      <source>{where}.isolation must be one of {modes}, not {value}</source>
      <translation>{where}.isolation 必须是 {modes} 之一，而不是 {value}</translation>
    </message>
    <message>
      <source>{where}.input_merge must be latest or concat, not {value}</source>
      <translation>{where}.input_merge 必须是 latest 或 concat，而不是 {value}</translation>
    </message>
    <message>
      <source>{where}.variants must be a mapping of variant names</source>
      <translation>{where}.variants 必须是变体名称的映射</translation>
    </message>
    <message>
      <source>{where}.{key} must be a list of tags</source>
      <translation>{where}.{key} 必须是标签列表</translation>
    </message>
    <message>
      <source>{path}: nested too deeply to read</source>
      <translation>{path}：嵌套过深，无法读取</translation>
    </message>
    <message>
      <source>workers must be a mapping of worker refs</source>
      <translation>workers 必须是 worker ref 的映射</translation>
    </message>
    <message>
      <source>contextProfile must map worker refs to {{variant, historyPolicy}}</source>
      <translation>contextProfile 必须把 worker ref 映射到 {{variant, historyPolicy}}</translation>
    </message>
    <message>
      <source>{path}: values nested deeper than {limit} levels</source>
      <translation>{path}：值的嵌套超过 {limit} 层</translation>
    </message>
    <message>
      <source>{path}: expected a JSON object of template variables</source>
      <translation>{path}：应为由模板变量组成的 JSON 对象</translation>
    </message>
    <message>
      <source>--turn and --turns simulate a zones config's turns; for a ChatLuna preset give the conversation so far with --history</source>
      <translation>--turn 和 --turns 用于模拟 zones 配置的回合；对 ChatLuna 预设，请用 --history 给出目前为止的对话</translation>
    </message>
    <message>
      <source>--turn counts from 0 and cannot be negative</source>
      <translation>--turn 从 0 开始计数，不能为负</translation>
    </message>
    <message>
      <source>--turn {turn}: a simulation has at most {count} turns (0 to {last})</source>
      <translation>--turn {turn}：一次模拟最多 {count} 个回合（0 到 {last}）</translation>
    </message>
    <message>
      <source>--turns {turns}: give a number of turns from 0 to {count}</source>
      <translation>--turns {turns}：请给出 0 到 {count} 之间的回合数</translation>
    </message>
    <message>
      <source>{path}: not valid JSON: {problem} at line {line}</source>
      <translation>{path}：不是有效的 JSON：{problem}（第 {line} 行）</translation>
    </message>
    <message>
      <source>{path}: not valid JSON: {problem}</source>
      <translation>{path}：不是有效的 JSON：{problem}</translation>
    </message>
    <message>
      <source>--{option} is for ChatLuna preset files; {file} is not one</source>
      <translation>--{option} 用于 ChatLuna 预设文件；{file} 不是预设文件</translation>
    </message>
    <message>
      <source>{origin}: expected a JSON list of {{role, content}} messages</source>
      <translation>{origin}：应为由 {{role, content}} 消息组成的 JSON 列表</translation>
    </message>
    <message>
      <source>{origin}: {count} messages; at most {limit} are read</source>
      <translation>{origin}：共 {count} 条消息；最多读取 {limit} 条</translation>
    </message>
    <message>
      <source>{origin}: message {index} must be an object with role and content only</source>
      <translation>{origin}：消息 {index} 必须是只含 role 和 content 的对象</translation>
    </message>
    <message>
      <source>{origin}: message {index}: role must be one of {roles}, found {role}</source>
      <translation>{origin}：消息 {index}：role 必须是 {roles} 之一，实际为 {role}</translation>
    </message>
    <message>
      <source>{origin}: message {index}: content must be a string</source>
      <translation>{origin}：消息 {index}：content 必须是字符串</translation>
    </message>
    <message>
      <source>--now {value}: not an ISO date-time (for example {example})</source>
      <translation>--now {value}：不是 ISO 日期时间（例如 {example}）</translation>
    </message>
  </context>
</TS>
